import { buildDashboardModel, type DashboardModel } from "./dashboard-model.js";
import { orgPaths } from "../paths.js";
import type { PaneFeed } from "../ports.js";
import { resultsPath, type ResultRow } from "../experiments/results-table.js";
import { checkResults, listTamperedRows, listTrustedRows } from "../experiments/journal-check.js";
import { journalPath, readChain } from "../experiments/journal.js";
import { formatLogEntry } from "../log-entry.js";
import type { AgentStatus, OrgRecord } from "../state.js";
import { readStatuses } from "./status-snapshot.js";
import type { Goal } from "../experiments/verdict.js";
import type { World } from "../world.js";
import { readUsageViews, type AgentUsage } from "../usage/summary.js";
import { readOptionalOrgRecord, readOrgRecord } from "../lifecycle/org-record-file.js";
import { abRunPath, parseAbRun, type AbRun } from "../config-versions/ab-run-record.js";
import { buildVerifierView, type VerifierInput, type VerifierView } from "./verifier.js";

interface FileState {
  record: OrgRecord;
  statuses: Map<string, AgentStatus | undefined>;
  rows: ResultRow[];
  metricName: string | undefined;
  logText: string;
  usage: Map<string, AgentUsage | null>;
  ab: AbRun | undefined;
  verifier: VerifierView | undefined;
}

/**
 * Reads what the dashboard shows: the panes on every read, as one tmux command line, and the state files
 * (org.json, status.json, results.tsv, log.md) at most every `fileRefreshMs`, since they change slowly.
 */
export class DashboardSource {
  private files: FileState | undefined;
  private filesAt = -Infinity;
  private listed: Set<string> | undefined;
  private feed: PaneFeed | undefined;

  constructor(
    private readonly world: World,
    private readonly root: string,
    private readonly opts: {
      goal: Goal; metricName: string; fileRefreshMs?: number;
      /** The verifier's queue, runs and ledgers (an adapter reads them); absent: the dashboard shows no verifier. */
      readVerifier?: (agents: string[]) => Promise<VerifierInput | undefined>;
    },
  ) {}

  async read(): Promise<DashboardModel> {
    const now = this.world.now();
    if (!this.files || now.getTime() - this.filesAt >= (this.opts.fileRefreshMs ?? 1000)) {
      this.files = await this.readFiles(this.files);
      this.filesAt = now.getTime();
    }
    const { record } = this.files;
    // Only panes the last listing showed: a vanished one would end the chained capture early every time.
    const ids = record.agents.flatMap((agent) =>
      (agent.paneId && (!this.listed || this.listed.has(agent.paneId)) ? [agent.paneId] : []));
    this.feed ??= this.world.panes(record.socket, record.session).openPaneFeed();
    const capture = await this.feed.capture(ids);
    this.listed = new Set(capture.panes.map((pane) => pane.id));
    return buildDashboardModel({
      ...this.files, panes: capture.panes, screens: capture.screens, isAlive: this.world.processes.isAlive,
      metricName: this.files.metricName ?? this.opts.metricName, goal: this.opts.goal, now,
    });
  }

  /** Ends the standing tmux connection. */
  close(): void {
    this.feed?.close();
    this.feed = undefined;
  }

  private async readFiles(previous: FileState | undefined): Promise<FileState> {
    const paths = orgPaths(this.root);
    // Once shown, an org whose org.json went missing keeps its last record on screen.
    const record = previous
      ? ((await readOptionalOrgRecord(this.world.files, this.root)) ?? previous.record)
      : await readOrgRecord(this.world.files, this.root);
    const names = record.agents.map((agent) => agent.name);
    const [statuses, results, journal, logText, usage, ab, verifier] = await Promise.all([
      readStatuses(this.world, paths.state, record.agents.map((agent) => agent.name)),
      this.world.files.readText(resultsPath(paths.state)),
      this.world.files.readText(journalPath(paths.state)),
      this.world.files.readText(paths.log),
      readUsageViews(this.world.files, paths.state, record.agents.map((agent) => agent.name)),
      this.world.files.readText(abRunPath(paths.state)).then(parseAbRun),
      this.opts.readVerifier?.(names).then((input) => input && buildVerifierView(input)),
    ]);
    // Only the verifier's rows are ranked; tampered ones are named in the event feed.
    const checked = checkResults(results ?? "", journal === undefined ? undefined : readChain(journal));
    const tampered = listTamperedRows(checked).length;
    const warning = tampered > 0
      ? formatLogEntry({
        date: this.world.now(),
        op: "tamper",
        title: `${tampered} results.tsv row${tampered === 1 ? " is" : "s are"} not the verifier's: `
          + `not counted (org results lists them)`,
      })
      : "";
    return {
      record,
      statuses,
      rows: listTrustedRows(checked),
      metricName: checked.metricName,
      logText: `${logText ?? ""}${warning}`,
      usage,
      ab,
      verifier,
    };
  }
}
