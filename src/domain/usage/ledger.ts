// state/agents/<agent>/usage.jsonl: every reply counted for the agent, once, one JSON line each; and its sums.
import { addCounts, readCount, readObject, ZERO_COUNTS, type TokenCounts, type UsageRecord } from "./token-counts.js";

export function formatLedgerLine(record: UsageRecord): string {
  return JSON.stringify({
    id: record.id,
    at: record.at,
    model: record.model,
    input: record.input,
    output: record.output,
    cacheRead: record.cacheRead,
    cacheWrite: record.cacheWrite,
  });
}

/**
 * The ledger's records, each id once (two daemons overlapping for a moment may both append a reply); a half-written
 * last line (the daemon died mid-append) and foreign lines are skipped.
 */
export function parseLedger(text: string): UsageRecord[] {
  const lines = text.split("\n");
  lines.pop();
  const records = lines.flatMap((line): UsageRecord[] => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return [];
    }
    const record = readObject(value);
    const counts = [record?.input, record?.output, record?.cacheRead, record?.cacheWrite].map(readCount);
    if (!record || typeof record.id !== "string" || typeof record.at !== "number" || typeof record.model !== "string"
        || counts.includes(undefined)) return [];
    const [input, output, cacheRead, cacheWrite] = counts as number[];
    return [{
      id: record.id,
      at: record.at,
      model: record.model,
      input: input!,
      output: output!,
      cacheRead: cacheRead!,
      cacheWrite: cacheWrite!,
    }];
  });
  return takeNew(records, new Set());
}

/** Records not counted before, each id once (a reply written as several lines, a ledger re-read after a crash). */
export function takeNew(records: UsageRecord[], seen: Set<string>): UsageRecord[] {
  const fresh: UsageRecord[] = [];
  for (const record of records) {
    if (seen.has(record.id)) continue;
    seen.add(record.id);
    fresh.push(record);
  }
  return fresh;
}

/** Sums per model, and over all models. */
export interface UsageTally {
  replies: number;
  total: TokenCounts;
  byModel: Record<string, TokenCounts>;
}

export const emptyTally = (): UsageTally => ({ replies: 0, total: { ...ZERO_COUNTS }, byModel: {} });

export function addToTally(tally: UsageTally, records: UsageRecord[]): UsageTally {
  const next: UsageTally = { replies: tally.replies, total: tally.total, byModel: { ...tally.byModel } };
  for (const record of records) {
    next.replies++;
    next.total = addCounts(next.total, record);
    next.byModel[record.model] = addCounts(next.byModel[record.model] ?? ZERO_COUNTS, record);
  }
  return next;
}
