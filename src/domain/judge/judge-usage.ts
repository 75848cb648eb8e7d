// A judge run's tokens as its CLI's headless output gives them, read strictly: counted, or unknown with why.
import { readCount, type TokenCounts } from "../usage/token-counts.js";

/** A run's tokens per model (and the dollars its CLI says it spent, never counted), or why they are not known. */
export type JudgeUsage =
  | { kind: "counted"; byModel: Record<string, TokenCounts>; cliUsd?: number }
  | { kind: "unknown"; why: string };

export interface JudgeOutput {
  /** What the model answered: the answer is read from it, and a judge-error's tail shows it. */
  text: string;
  usage: JudgeUsage;
}

export const unknownUsage = (why: string): JudgeUsage => ({ kind: "unknown", why });

/** Counts of one model as the CLI named them; a missing cache count is none, anything else not whole is malformed. */
export function readModelCounts(
  fields: Record<string, unknown> | undefined,
  names: { input: string; output: string; cacheRead: string; cacheWrite?: string },
  what: string,
): TokenCounts | string {
  const cacheWrite = names.cacheWrite === undefined ? 0 : fields?.[names.cacheWrite];
  const counts = {
    input: readCount(fields?.[names.input]), output: readCount(fields?.[names.output]),
    cacheRead: readCount(fields?.[names.cacheRead] ?? 0), cacheWrite: readCount(cacheWrite ?? 0),
  };
  const bad = Object.entries(counts).find(([, count]) => count === undefined);
  if (bad) return `${what} has no whole-number ${bad[0]} (${JSON.stringify(fields ?? null).slice(0, 120)})`;
  return counts as TokenCounts;
}

