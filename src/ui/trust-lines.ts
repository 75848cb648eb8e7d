import { listTamperedRows, type CheckedResults } from "../domain/experiments/journal-check.js";

/**
 * What `org results` and `org report` say under the leaderboard: each tampered row, and how
 * many rows are unchecked legacy.
 */
export function describeTrust(checked: CheckedResults): string[] {
  const lines = listTamperedRows(checked).map(({ row, number, trust }) =>
    `TAMPERED results.tsv line ${number}: ${row.commit} ${row.status} "${row.description.slice(0, 60)}" `
      + `by ${row.agent || "no one"} — ${trust.reason}; not counted`);
  if (checked.broken) lines.push(`TAMPERED journal, ${checked.broken}: rows journaled after it are not counted`);
  const legacy = checked.rows.filter((row) => row.trust.kind === "legacy").length;
  if (legacy > 0) {
    const why = checked.unjournaled
      ? "this org has no journal (started by an older org)"
      : "written before the journal began";
    lines.push(`unjournaled: ${legacy} row${legacy === 1 ? "" : "s"} ${why}: shown and counted, but not checked`);
  }
  return lines;
}
