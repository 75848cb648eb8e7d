export { parseJudgeAnswer, type JudgeAnswer } from "./answer.js";
export { isJudgePreset, JUDGE_PRESETS, planJudgeArgv, type JudgePreset } from "./judge-argv.js";
export { decideCalibration, describeReference, type Calibration, type ReferenceScores } from "./calibrate.js";
export { renderJudgePrompt, type JudgedWork, type JudgePromptInput, type ShownFile } from "./prompt.js";
export { readJudgeRun } from "./run-outcome.js";
export { readJudgeOutput } from "./output.js";
export type { JudgeOutput, JudgeUsage } from "./judge-usage.js";
export {
  judgeCostsForStop, recordJudgeUsage, summarizeJudgeSpend, type JudgeRunRecord, type JudgeSpend,
} from "./spend.js";
