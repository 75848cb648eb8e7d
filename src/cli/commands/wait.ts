import { findExperiment } from "../../flows/wait-verdict.js";
import type { Io } from "../io.js";
import { printAnswer } from "../print-answer.js";

/** `org wait <id> [--json]`: block until that experiment's verdict exists, then print it as `org submit` would. */
export async function runWait(opts: { root: string; id?: string; json?: boolean }, io: Io): Promise<number> {
  const experiment = await findExperiment({ root: opts.root, id: opts.id, warn: (line) => io.err(line) });
  return printAnswer(await experiment.waitForVerdict(), io, Boolean(opts.json));
}
