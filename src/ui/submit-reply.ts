import type { VerdictFile } from "../daemon/index.js";

/** The few lines an agent reads after `org submit`: metric, its best, delta, verdict; on a crash the log's tail. */
export function formatSubmitReply(verdict: VerdictFile): string[] {
  const { outcome, best } = verdict;
  const lines: string[] = [];
  const metric = outcome.metric === undefined ? "no metric" : outcome.metric.toFixed(6);
  const delta = "delta" in outcome.verdict ? `${outcome.verdict.delta >= 0 ? "+" : ""}${outcome.verdict.delta.toFixed(6)}` : "-";
  lines.push(`metric ${metric} · your best ${best ? `${best.metric.toFixed(6)} (${best.commit.slice(0, 7)})` : "none yet"} · delta ${delta} · ${outcome.verdict.kind}`);
  lines.push(outcome.verdict.reason);
  if (outcome.head !== outcome.request.commit) lines.push(`your branch was reset to ${outcome.head.slice(0, 7)}; the diff is saved in ${outcome.patch}`);
  if (outcome.verdict.kind === "crash" && outcome.logTail) {
    lines.push(`last lines of ${outcome.logFile}:`, outcome.logTail);
  }
  return lines;
}
