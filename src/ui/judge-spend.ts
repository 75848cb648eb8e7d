import type { JudgeSpend } from "../domain/judge/index.js";
import { totalTokens } from "../domain/usage/token-counts.js";
import { formatTokens, formatUsd } from "./usage-format.js";

const WHO = "the judge (verifier)";

/** "the judge (verifier): 5.39k tokens, $0.016 over 4 runs (2 calibrating), $0.0039 per verdict" */
export function describeJudgeSpend(spend: JudgeSpend): string {
  const dollars = spend.costUsd === null ? "unpriced" : formatUsd(spend.costUsd);
  const runs = `${spend.runs} run${spend.runs === 1 ? "" : "s"}`;
  const calibrating = spend.calibrationRuns > 0 ? ` (${spend.calibrationRuns} calibrating)` : "";
  const perVerdict = spend.perVerdictUsd === null ? "" : `, ${formatUsd(spend.perVerdictUsd)} per verdict`;
  const floor = spend.unknownRuns > 0 ? "+" : "";
  const tokens = formatTokens(totalTokens(spend));
  return `${WHO}: ${tokens} tokens, ${dollars}${floor} over ${runs}${calibrating}${perVerdict}`;
}

/** Why the judge's dollars are not whole; with stop.max_cost set, what the limit then counts. */
export function explainJudgeSpend(spend: JudgeSpend, maxCost: boolean): string[] {
  const lines: string[] = [];
  if (spend.unpriced) {
    const limit = maxCost
      ? " — stop.max_cost counts none of the judge's dollars until its model has a price under pricing" : "";
    lines.push(`${WHO}: unpriced: ${spend.unpriced}${limit}`);
  }
  if (spend.unknown) {
    const limit = maxCost ? " — stop.max_cost counts only the runs whose usage is known" : "";
    lines.push(`${WHO}: usage unknown: ${spend.unknown}${limit}`);
  }
  return lines;
}
