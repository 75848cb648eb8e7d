import type { MessageSettings } from "../../domain/config/index.js";
import type { ExperimentRequest } from "../../domain/experiments/request.js";
import type { VerifierPort } from "../../domain/experiments/verifier-port.js";
import type { Incident } from "../../domain/experiments/incident.js";
import type { JournalEntry } from "../../domain/experiments/journal.js";
import { orgPaths } from "../../domain/paths.js";
import type { OrgRecord } from "../../domain/state.js";
import type { JournalStore } from "../../adapters/store/journal-store.js";
import { reportIncidents } from "../../adapters/verifier/incident-report.js";
import { readAbRun } from "../../adapters/store/ab-run.js";
import { guardFrontier } from "../../adapters/verifier/frontier-writer.js";
import { ResultsAudit } from "../../adapters/verifier/results-audit.js";

/**
 * The verifier's word kept final: its rows are journaled before they are written, and each tick the journal
 * file, results.tsv and the org best are held against the journal; whatever else wrote them is put back where it
 * can be, and told.
 */
export class VerifierGuard {
  private readonly results: ResultsAudit;
  private readonly state: string;
  private starting = true;

  constructor(
    private readonly opts: {
      record: OrgRecord;
      journal: JournalStore;
      port: VerifierPort;
      say: (line: string) => void;
      messages?: MessageSettings;
    },
  ) {
    this.state = orgPaths(opts.record.root).state;
    this.results = new ResultsAudit(this.state, (header, line) => opts.port.appendResult(header, line));
  }

  /** `port` for one request: its row goes into the journal first, so a row without an entry is never the verifier's. */
  journalRows(port: VerifierPort, request: ExperimentRequest): VerifierPort {
    return {
      ...port,
      appendResult: (header, line) => this.opts.journal.exclusive(async (tx) => {
        const entry = await tx.append({
          kind: "row",
          payload: { agent: request.agent, commit: request.commit, request: request.id, header, row: line },
        });
        await port.appendResult(header, line).catch((error: unknown) => {
          this.results.noteUnwritten(entry.seq);
          throw error;
        });
      }),
    };
  }

  /** One tick's look; `best` is where the org best pointed at the tick's listing of the refs. */
  async check(best: string | undefined): Promise<void> {
    const { journal, record } = this.opts;
    const found = await journal.audit();
    // B's best of an A/B run is held against the journal as the org's is; the listing only has the org's.
    const halves: ("b" | undefined)[] = (await readAbRun(this.state)) ? [undefined, "b"] : [undefined];
    found.push(
      ...(await journal.exclusive(async (tx) => [
        ...(await this.results.check(tx.entries)),
        ...(await this.guardHalves(tx.entries, best, halves)),
      ])),
    );
    await reportIncidents({
      state: this.state,
      agents: record.agents.map((agent) => agent.name),
      incidents: found,
      say: this.opts.say,
      messages: this.opts.messages,
    });
  }

  // The listing may predate a move the verifier just made:
  // a mismatch is read again from git before anything is put back.
  private async guardHalves(
    entries: readonly JournalEntry[],
    listed: string | undefined,
    halves: ("b" | undefined)[],
  ): Promise<Incident[]> {
    const found: Incident[] = [];
    for (const half of halves) found.push(...(await this.guardBest(entries, half ? undefined : listed, half)));
    this.starting = false;
    return found;
  }

  private guardBest(entries: readonly JournalEntry[], listed: string | undefined, half: "b" | undefined)
    : Promise<Incident[]> {
    const { record, port } = this.opts;
    const branchHead = (branch: string) => port.branchHead(branch);
    return guardFrontier({ record, entries, half, starting: this.starting, listed, branchHead });
  }
}
