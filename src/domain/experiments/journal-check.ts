// results.tsv read through the journal: a row counts only when the verifier journaled that very line.
import type { Incident } from "./incident.js";
import { hashText, type ChainRead, type JournalEntry, type RowRecord } from "./journal.js";
import { parseResults, type ResultRow } from "./results-table.js";

/** How far a row is to be believed: the verifier's, older than the journal, or not the verifier's at all. */
export type RowTrust = {
  kind: "journaled"; commit: string; seq: number;
} | { kind: "legacy" } | { kind: "tampered"; reason: string };

export interface CheckedRow {
  row: ResultRow;
  /** The line as it stands in results.tsv. */
  line: string;
  /** 1-based line number in results.tsv. */
  number: number;
  trust: RowTrust;
}

/** A row entry of the journal with its place in the chain. */
export interface JournaledRow {
  seq: number;
  record: RowRecord;
}

export interface CheckedResults {
  metricName: string | undefined;
  rows: CheckedRow[];
  /** Journaled rows results.tsv lacks: a daemon killed between the two writes, or a row deleted by hand. */
  missing: JournaledRow[];
  /** No journal at all: an org started by an older org, every row unjournaled legacy. */
  unjournaled: boolean;
  /** What is wrong with the journal itself. */
  broken?: string;
}

/** A chain as far as it holds: the daemon's own entries, or those read from the file and where it broke. */
type Chain = { entries: readonly JournalEntry[]; broken?: ChainRead["broken"] };

/** Each results.tsv row checked against the journal's rows; `chain` undefined means there is no journal file. */
export function checkResults(resultsText: string, chain: Chain | undefined): CheckedResults {
  const { metricName } = parseResults(resultsText);
  const lines = resultsText.split("\n");
  // A last line without its newline is still being written: not a row yet, as parseResults has it.
  lines.pop();
  if (!chain) return {
    metricName, rows: parseLines(lines, () => ({ kind: "legacy" })), missing: [], unjournaled: true,
  };
  const genesis = chain.entries[0]?.kind === "genesis" ? chain.entries[0].payload : undefined;
  const legacy = genesis?.results.lines ?? 0;
  const legacyIntact = legacy === 0 || hashText(
    lines.slice(0, legacy).map((line) => `${line}\n`).join(""),
  ) === genesis?.results.sha256;
  const journaled = new Map<string, JournaledRow[]>();
  for (const entry of chain.entries) if (entry.kind === "row") journaled.set(entry.payload.row, [
    ...(journaled.get(entry.payload.row) ?? []), { seq: entry.seq, record: entry.payload },
  ]);
  const unclaimed = new Map([...journaled].map(([line, records]) => [line, [...records]]));
  const rows = parseLines(lines, (line, number, row) => {
    if (number <= legacy) return legacyIntact
      ? { kind: "legacy" }
      : { kind: "tampered", reason: "the rows written before the journal began were changed since" };
    const found = unclaimed.get(line)?.shift();
    if (found) return { kind: "journaled", commit: found.record.commit, seq: found.seq };
    return { kind: "tampered", reason: explainUnjournaled(row, line, journaled, chain) };
  });
  const missing = [...unclaimed.values()].flat();
  return {
    metricName, rows, missing, unjournaled: false,
    ...(chain.broken ? { broken: `line ${chain.broken.line}: ${chain.broken.reason}` } : {}),
  };
}

/** The rows to show and count: the journaled ones and the legacy ones, never a tampered one. */
export function listTrustedRows(checked: CheckedResults): ResultRow[] {
  return checked.rows.filter((row) => row.trust.kind !== "tampered").map((row) => row.row);
}

/** The tampered rows alone, each with what was found. */
export function listTamperedRows(checked: CheckedResults): (CheckedRow & { trust: { kind: "tampered" } })[] {
  return checked.rows.filter(
    (row): row is CheckedRow & { trust: { kind: "tampered" } } => row.trust.kind === "tampered",
  );
}

function parseLines(lines: string[], trust: (line: string, number: number, row: ResultRow) => RowTrust): CheckedRow[] {
  const checked: CheckedRow[] = [];
  let header = "";
  for (const [index, raw] of lines.entries()) {
    const line = raw.replace(/\r$/, "");
    // Parsed under its header: a column such as program is found by name.
    if (line.startsWith("commit\t")) header = `${line}\n`;
    const row = parseResults(`${header}${line}\n`).rows[0];
    if (!row) continue;
    const number = index + 1;
    checked.push({ row, line, number, trust: trust(line, number, row) });
  }
  return checked;
}

function explainUnjournaled(
  row: ResultRow, line: string, journaled: Map<string, JournaledRow[]>, chain: Chain,
): string {
  if (journaled.has(line)) return "a second copy of a row the verifier wrote once";
  const judged = [...journaled.values()]
    .flat()
    .map((found) => found.record)
    .find((record) => record.commit.startsWith(row.commit) && record.agent === row.agent);
  if (judged) return `the verifier recorded ${row.commit} for ${row.agent} otherwise: `
    + `${judged.row.split("\t").slice(1, 4).join(" ")}`;
  const broken = chain.broken ? ` (the journal breaks at line ${chain.broken.line}: ${chain.broken.reason})` : "";
  return `no journal entry: the verifier never judged ${row.commit} for ${row.agent || "anyone"}${broken}`;
}

/** A tampered row: its title names the row, so the same forgery is told once however often it is read. */
export function listRowIncidents(checked: CheckedResults): Incident[] {
  const incidents: Incident[] = listTamperedRows(checked).map(({ row, number, trust }) => ({
    kind: "tampered",
    title: `results.tsv row ${row.commit} ${row.status} "${row.description.slice(0, 60)}" by ${row.agent || "no one"} `
      + `is not the verifier's`,
    body: `line ${number}: ${trust.reason}; it is shown as tampered, never as a result, and counts for no best`,
  }));
  if (checked.broken) incidents.push({
    kind: "tampered", title: `the journal breaks at ${checked.broken.split(":")[0]}`,
    body: `${checked.broken}; rows journaled after that point count as tampered`,
  });
  return incidents;
}

/**
 * Journaled rows whose commit the repository no longer has: what was judged is gone, so they are not believed either.
 */
export function markMissingCommits(checked: CheckedResults, missing: ReadonlySet<string>): CheckedResults {
  if (missing.size === 0) return checked;
  const rows = checked.rows.map((row): CheckedRow => row.trust.kind === "journaled" && missing.has(row.trust.commit)
    ? { ...row, trust: { kind: "tampered", reason: `commit ${row.trust.commit} does not exist in the repository` } }
    : row);
  return { ...checked, rows };
}
