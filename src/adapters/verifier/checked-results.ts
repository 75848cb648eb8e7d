import {
  checkResults, listRowIncidents, listTrustedRows, markMissingCommits, type CheckedResults,
} from "../../domain/experiments/journal-check.js";
import type { JournalEntry } from "../../domain/experiments/journal.js";
import { readJournalChain } from "../store/journal-store.js";
import { parseResults, type ResultRow } from "../../domain/experiments/results-table.js";
import { orgPaths } from "../../domain/paths.js";
import { listMissingCommits } from "../git/missing-commits.js";
import { reportIncidents } from "./incident-report.js";
import { readOptionalRecord } from "../store/org-record.js";
import { readResultsText } from "../store/results-file.js";

/**
 * results.tsv checked against the journal and the repository, for `org results` and `org report`: what is tampered
 * is told (log.md once, every agent, `say` for the person) and left out of every result.
 */
export async function readCheckedResults(root: string, say: (line: string) => void): Promise<CheckedResults> {
  const paths = orgPaths(root);
  const [text, journal, record] = await Promise.all([
    readResultsText(paths.state), readJournalChain(paths.state), readOptionalRecord(root).catch(() => undefined),
  ]);
  let checked = checkResults(text, journal);
  // Without the org's repo and agents (none, or a hand-cut org.json) there is nothing to look commits up in or to tell.
  if (!record?.repo || !Array.isArray(record.agents)) return checked;
  // Only kept commits count for a best: those must still be what was judged.
  const kept = checked.rows.flatMap((row) => (row.trust.kind === "journaled" && row.row.status === "keep"
    ? [row.trust.commit]
    : []));
  checked = markMissingCommits(checked, await listMissingCommits(record.repo, kept));
  await reportIncidents({
    state: paths.state, agents: record.agents.map((agent) => agent.name), incidents: listRowIncidents(checked), say,
  });
  return checked;
}

/**
 * The rows of state/results.tsv the verifier vouches for (journaled or legacy), with journaled rows the file lacks yet
 * (a daemon killed between the two writes); `entries` is the daemon's own copy, else the journal file is read.
 */
export async function readTrustedRows(state: string, entries?: readonly JournalEntry[]): Promise<ResultRow[]> {
  const text = await readResultsText(state);
  const checked = checkResults(text, entries ? { entries } : await readJournalChain(state));
  return [
    ...listTrustedRows(checked), ...checked.missing.flatMap(({ record }) => parseResults(`${record.row}\n`).rows),
  ];
}
