import { formatConfirmReport } from "../../domain/experiments/confirm-report.js";
import { confirmCommit } from "../../flows/confirm-commit.js";
import type { Io } from "../io.js";

/** `org confirm <commit> [-n 5] [--agent a]`: re-run a commit with fresh seeds; mean ± sd next to the baseline's. */
export async function runConfirm(
  opts: { root: string; commit: string; runs: number; agent?: string }, io: Io,
): Promise<number> {
  const confirming = await confirmCommit(opts);
  io.out(`re-running ${confirming.commit.slice(0, 7)} ${opts.runs} times in ${confirming.agent}'s slot…`);
  const report = await confirming.waitForReport();
  for (const line of formatConfirmReport(report)) io.out(line);
  return report.crashed ? 1 : 0;
}
