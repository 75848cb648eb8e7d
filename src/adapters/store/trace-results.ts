// What `org traces` holds the transcripts against: the verifier's trusted rows, each with its experiment id and
// full commit.
import { checkResults } from "../../domain/experiments/journal-check.js";
import { parseResults } from "../../domain/experiments/results-table.js";
import { orgPaths } from "../../domain/paths.js";
import type { TracedResult } from "../../domain/traces/experiments.js";
import { readJournalChain } from "./journal-store.js";
import { readResultsText } from "./results-file.js";

/** Every row of results.tsv the verifier wrote (a tampered row is left out, as from every result), oldest first. */
export async function readTracedResults(root: string): Promise<TracedResult[]> {
  const { state } = orgPaths(root);
  const [text, chain] = await Promise.all([readResultsText(state), readJournalChain(state)]);
  const requests = new Map((chain?.entries ?? []).flatMap((entry) => (
    entry.kind === "row" ? [[entry.seq, entry.payload.request] as const] : []
  )));
  const checked = checkResults(text, chain);
  const rows: TracedResult[] = checked.rows.flatMap(({ row, trust }) => {
    if (trust.kind === "tampered") return [];
    const journaled = trust.kind === "journaled"
      ? { commit: trust.commit, id: requests.get(trust.seq) }
      : { commit: row.commit, id: undefined };
    return [{ ...toTraced(row), commit: journaled.commit, ...(journaled.id ? { id: journaled.id } : {}) }];
  });
  for (const { record } of checked.missing) {
    for (const row of parseResults(`${record.header}\n${record.row}\n`).rows) {
      rows.push({ ...toTraced(row), commit: record.commit, id: record.request });
    }
  }
  return rows;
}

function toTraced(row: ReturnType<typeof parseResults>["rows"][number]): TracedResult {
  return {
    agent: row.agent, commit: row.commit, status: row.status, description: row.description, time: row.time,
    ...(row.metric !== undefined ? { metric: row.metric } : {}),
  };
}
