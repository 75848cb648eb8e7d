import type { Incident } from "../../domain/experiments/incident.js";
import { checkResults, listRowIncidents } from "../../domain/experiments/journal-check.js";
import type { JournalEntry } from "../../domain/experiments/journal.js";
import { readResultsStamp, readResultsText } from "../store/results-file.js";

/**
 * The daemon's look at results.tsv, each tick: read only when its size or time changed. Rows it never journaled are
 * tampering; journaled rows the file lacks are written back — completed when the write was cut (the journal's last row,
 * as a killed daemon leaves it, or one whose write failed here), told as deleted otherwise.
 */
export class ResultsAudit {
  private stamp = "";
  private readonly told = new Set<string>();
  /** Row entries of this daemon whose line was never written (the write failed after the entry). */
  private readonly unwritten = new Set<number>();
  constructor(
    private readonly state: string,
    private readonly appendRow: (header: string, line: string) => Promise<void>,
  ) {}

  /** A row entry whose line could not be written: when the file lacks it, that is no deletion. */
  noteUnwritten(seq: number): void {
    this.unwritten.add(seq);
  }

  /** Run while holding the journal: no row is between its entry and its line meanwhile. */
  async check(entries: readonly JournalEntry[]): Promise<Incident[]> {
    const stamp = await readResultsStamp(this.state);
    if (stamp === this.stamp) return [];
    const checked = checkResults(await readResultsText(this.state), { entries });
    const incidents = listRowIncidents(checked);
    // Each row is written right after its entry, one at a time: a kill can cut only the last one.
    const last = [...entries].reverse().find((entry) => entry.kind === "row")?.seq;
    for (const { seq, record } of checked.missing) {
      await this.appendRow(record.header, record.row);
      const what = `results.tsv row ${record.commit.slice(0, 7)} of ${record.agent} (request ${record.request})`;
      incidents.push(seq === last || this.unwritten.has(seq)
        ? {
          kind: "recovered", title: `${what} written from the journal`,
          body: "the daemon was killed after journaling the verdict and before writing its row",
        }
        : {
          kind: "tampered", title: `${what} was deleted`,
          body: "the verifier wrote it back from the journal; deleting a row does not remove a verdict",
        });
    }
    this.stamp = await readResultsStamp(this.state);
    const fresh = incidents.filter((incident) => !this.told.has(incident.title));
    for (const incident of fresh) this.told.add(incident.title);
    return fresh;
  }
}
