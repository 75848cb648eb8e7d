// What `org lineage` reads: the verifier's trusted keeps with their full commits, its stacks, and the store's graph.
import { checkResults } from "../../domain/experiments/journal-check.js";
import { parseResults, type ResultRow } from "../../domain/experiments/results-table.js";
import type { KeptRow, LineageInput } from "../../domain/lineage/index.js";
import { orgPaths, verifierStorePaths } from "../../domain/paths.js";
import { readJournalChain } from "./journal-store.js";
import { readCommitGraph, resolveStoreCommits } from "../git/commit-graph.js";
import { readOptionalRecord } from "./org-record.js";
import { readStackAttempts } from "./stacks.js";
import { readResultsText } from "./results-file.js";

/** The lineage's input for the org at `root`; a tampered row is left out, as from every result. */
export async function readLineageInput(root: string): Promise<LineageInput & { metricName: string | undefined }> {
  const { state } = orgPaths(root);
  const [text, journal, record, stacks] = await Promise.all([
    readResultsText(state), readJournalChain(state),
    readOptionalRecord(root).catch(() => undefined), readStackAttempts(state),
  ]);
  const checked = checkResults(text, journal);
  const rows: { row: ResultRow; commit: string }[] = checked.rows.flatMap(({ row, trust }) => {
    if (trust.kind === "tampered") return [];
    return [{ row, commit: trust.kind === "journaled" ? trust.commit : row.commit }];
  });
  for (const { record: entry } of checked.missing) {
    for (const row of parseResults(`${entry.header}\n${entry.row}\n`).rows) rows.push({ row, commit: entry.commit });
  }
  const store = verifierStorePaths(state).repo;
  const kept = rows.filter(({ row }) => row.status === "keep" && row.metric !== undefined);
  // A legacy row names 7 characters: the store, where the verifier took the commit, names it in full.
  const short = kept.map(({ commit }) => commit).filter((commit) => commit.length < 40);
  const full = await resolveStoreCommits(store, short);
  const keeps: KeptRow[] = kept.map(({ row, commit }) => ({
    commit: full.get(commit) ?? commit, agent: row.agent, description: row.description, time: row.time,
    metric: row.metric!,
    ...(row.program ? { program: row.program } : {}),
  }));
  const base = record?.baseCommit;
  const commits = keeps.map((keep) => keep.commit).filter((commit) => commit.length >= 40);
  const graph = await readCommitGraph(store, commits, base);
  return { base, keeps, stacks, graph, metricName: checked.metricName };
}
