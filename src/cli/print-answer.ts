import { formatAnswer, type SubmitAnswer } from "../domain/experiments/submit-reply.js";
import { describeAnswerJson } from "../domain/scripting/index.js";
import { formatJson } from "../domain/safe-text.js";
import type { Io } from "./io.js";

/** What `org submit` and `org wait` print for an experiment's answer, as lines or as JSON; 1 when it never ran. */
export function printAnswer(answer: SubmitAnswer, io: Io, json: boolean): number {
  const { lines, code } = formatAnswer(answer);
  if (json) io.out(formatJson(describeAnswerJson(answer)));
  else for (const line of lines) io.out(line);
  return code;
}
