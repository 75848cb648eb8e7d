export { EXIT, decideExitCode } from "./exit-codes.js";
export { buildErrorJson, describeErrorJson, type ErrorJson } from "./error-json.js";
export { parseProblem, splitFix, type ProblemJson } from "./problem-json.js";
export { describeAnswerJson, type AnswerJson } from "./answer-json.js";
