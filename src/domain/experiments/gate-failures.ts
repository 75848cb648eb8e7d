// Which gate failed how often: what `org results`, `org history`, `org compare` and the report name for fail rows.
import type { ResultRow } from "./results-table.js";
import { ranAsExperiment } from "./row-kind.js";

export interface GateFailures {
  gate: string;
  count: number;
  /** The latest fail at this gate. */
  latest: { commit: string; agent: string };
}

/** Fail rows that ran, per gate, the gate failing most first (then by name); a ledger's answer ran nothing. */
export function tallyGateFailures(rows: readonly ResultRow[]): GateFailures[] {
  const tally = new Map<string, GateFailures>();
  for (const row of rows) {
    if (row.status !== "fail" || !ranAsExperiment(row)) continue;
    // A row from a results.tsv without the column still failed some gate: not knowing which is said so.
    const gate = row.gate ?? "unknown";
    const entry = tally.get(gate) ?? { gate, count: 0, latest: { commit: row.commit, agent: row.agent } };
    entry.count += 1;
    entry.latest = { commit: row.commit, agent: row.agent };
    tally.set(gate, entry);
  }
  return [...tally.values()].sort((a, b) => b.count - a.count || a.gate.localeCompare(b.gate));
}
