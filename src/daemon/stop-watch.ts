import { parseDuration, type OrgConfig } from "../domain/config/index.js";
import { describeFigures, type StopDecision } from "../domain/experiments/stop.js";
import type { StopRecord } from "../domain/experiments/stop-state.js";
import { formatLogEntry } from "../domain/log-entry.js";
import { readMessageSettings } from "../domain/messages/mail-port.js";
import { orgPaths } from "../domain/paths.js";
import type { OrgRecord } from "../domain/state.js";
import { appendLines } from "../adapters/fs/files.js";
import { listQueue } from "../adapters/store/queue.js";
import { sendMessage } from "../adapters/store/inbox-files.js";
import { readOptionalRecord } from "../adapters/store/org-record.js";
import { evaluateStop, readWaivers } from "../adapters/store/stop-watch-state.js";
import { readStopFile, removeStopFile, writeStopFile } from "../adapters/store/stop-file.js";

// A stop is a matter of minutes; a look every few seconds is soon enough and costs a few small reads. The suites
// look more often (ORG_TEST_STOP_TICK_MS, docs/testing.md): their stops are seconds apart.
export const STOP_TICK_MS = Number(process.env.ORG_TEST_STOP_TICK_MS) || 3000;

/** What carrying out a stop does to the world: the grid's programs and the report. */
export interface StopControl {
  /**
   * Marks every live agent stopped (so no supervisor restarts it) and ends its program's group; returns their names.
   */
  stopAgents(record: OrgRecord, reason: string): Promise<string[]>;
  /** Starts again each agent a stop ended; returns their names. */
  resumeAgents(record: OrgRecord): Promise<string[]>;
  writeReport(): Promise<{ path: string } | { error: string }>;
  /** stop.ablate: queues the org best's ablation; `cancel` (a GPU-hour or cost limit) holds it to that limit. */
  ablate(record: OrgRecord, config: OrgConfig, cancel: boolean): Promise<{ commit: string } | { skipped: string }>;
}

type ReadConfig = () => Promise<{ loaded: { config: OrgConfig } } | { problems: string[] }>;

/**
 * The daemon's keeper of org.yaml's stop section: each look decides anew, so a limit raised (or removed, or
 * waived by `org up --resume`) resumes a stopped org. A stop goes grace → draining → stopped, on disk in stop.json.
 */
export class StopWatch {
  private readonly paths;
  // No stop section and no stop.json at the last look: only this watch writes one, so none is read until one is named.
  private clear = false;

  constructor(
    private readonly opts: { root: string; readConfig: ReadConfig; control: StopControl; say: (line: string) => void },
  ) {
    this.paths = orgPaths(opts.root);
  }

  /** One look, run by the daemon's loop every STOP_TICK_MS: a failure is said, never thrown. */
  async tick(now: Date): Promise<void> {
    await this.work(now).catch((error: Error) => this.opts.say(`stop: ${error.message}`));
  }

  private async work(now: Date): Promise<void> {
    const read = await this.opts.readConfig();
    if (!("loaded" in read)) return;
    const { config } = read.loaded;
    if (!config.stop && this.clear) return;
    const current = await readStopFile(this.paths.state);
    const stopped = current?.kind === "stop" ? current : undefined;
    // No stop section and no stop under way: org.json is not read every tick for nothing.
    if (!config.stop && !stopped) {
      const record = current && (await readOptionalRecord(this.opts.root).catch(() => undefined));
      if (record) await removeStopFile(this.paths.state);
      this.clear = !current || record !== undefined;
      return;
    }
    this.clear = false;
    const record = await readOptionalRecord(this.opts.root).catch(() => undefined);
    if (!record) return;
    const decision = await evaluateStop({ config, record, now });
    if (decision.kind === "running") {
      if (stopped) await this.resume(stopped, config, record, now);
      if (
        stopped ||
        JSON.stringify(current?.kind === "running" ? current.distances : undefined) !==
          JSON.stringify(decision.distances)
      ) {
        await writeStopFile(this.paths.state, {
          kind: "running",
          at: now.toISOString(),
          distances: decision.distances,
        });
      }
      return;
    }
    if (!stopped) return this.begin(decision, config, record, now);
    await this.advance(stopped, decision, config, record, now);
  }

  /** Met: the timeline, one message to every agent, and the grace they get to write their progress. */
  private async begin(
    decision: Extract<StopDecision, { kind: "stop" }>,
    config: OrgConfig,
    record: OrgRecord,
    now: Date,
  ): Promise<void> {
    const grace = parseDuration(config.stop?.grace ?? "2m");
    const graceUntil = new Date(now.getTime() + grace).toISOString();
    const stop: StopRecord = {
      kind: "stop",
      phase: "grace",
      key: decision.key,
      reason: decision.reason,
      figures: decision.figures,
      cancel: decision.cancel,
      metAt: now.toISOString(),
      graceUntil,
    };
    await writeStopFile(this.paths.state, stop);
    const queued = decision.cancel
      ? "queued experiments are cancelled (confirmations finish)"
      : "queued experiments finish";
    const agents = record.agents.map((agent) => agent.name);
    const body = [
      `# The org stops: ${decision.reason}`,
      "",
      `You have ${config.stop?.grace ?? "2m"} (until ${graceUntil}) to write your progress file ($ORG_PROGRESS): ` +
        `what you tried, what worked, what you would try next.`,
      `Submit nothing new: ${queued}. Then your program is stopped; your pane, branch and worktree stay.`,
    ].join("\n");
    const sent =
      agents.length > 0
        ? await sendMessage(
            this.paths.state,
            { from: "org", to: agents, kind: "stop", body },
            readMessageSettings(config),
            now,
          )
        : undefined;
    await this.timeline(now, "stop", decision.reason, [
      describeFigures(decision.figures),
      `agents told${sent ? ` (message ${sent.id})` : ""}; their programs stop at ${graceUntil}; ${queued}`,
    ]);
    this.opts.say(`stop: ${decision.reason}; agents stop at ${graceUntil}`);
  }

  /** Past the grace the programs stop; once no experiment is queued or running, the report and the stop are final. */
  private async advance(
    stopped: StopRecord,
    decision: Extract<StopDecision, { kind: "stop" }>,
    config: OrgConfig,
    record: OrgRecord,
    now: Date,
  ): Promise<void> {
    let next: StopRecord = stopped;
    if (decision.key !== stopped.key) {
      // The limit that stopped the org was raised, but another holds now: the stop stands, for the new reason.
      next = { ...next, key: decision.key, reason: decision.reason, cancel: decision.cancel };
      await this.timeline(now, "stop", decision.reason, [describeFigures(decision.figures), `was: ${stopped.reason}`]);
    }
    if (next.phase === "grace" && now.getTime() >= Date.parse(next.graceUntil)) {
      const names = await this.opts.control.stopAgents(record, next.reason);
      this.opts.say(
        `stop: stopped ${names.length > 0 ? names.join(", ") : "no running agent"}; waiting for queued experiments`,
      );
      next = { ...next, phase: "draining" };
    }
    // stop.ablate: once the agents' experiments drained, the best's variants queue and drain the same way.
    const ablate = next.phase === "draining" && config.stop?.ablate && !next.ablated;
    if (ablate && (await this.countQueued(config, record)) === 0) {
      const ablated = await this.opts.control.ablate(record, config, next.cancel);
      next = { ...next, ablated };
      const what = "commit" in ablated ? `the org best ${ablated.commit.slice(0, 7)}: its variants queued`
        : ablated.skipped;
      await this.timeline(now, "ablate", what, ["stop.ablate: the report waits for its variants (`org ablate`)"]);
    }
    if (next.phase === "draining" && (await this.countQueued(config, record)) === 0) {
      const report = await this.opts.control.writeReport();
      next = { ...next, phase: "stopped", figures: decision.figures, stoppedAt: now.toISOString(), report };
      const written = "path" in report ? `report ${report.path}` : `no report: ${report.error}`;
      await this.timeline(now, "stopped", next.reason, [
        describeFigures(decision.figures),
        `agents stopped; ${written}`,
        "to go on: raise the limit in org.yaml, or `org up --resume`",
      ]);
    }
    if (next !== stopped) await writeStopFile(this.paths.state, next);
  }

  private async resume(stopped: StopRecord, config: OrgConfig, record: OrgRecord, now: Date): Promise<void> {
    const value = config.stop?.[stopped.key];
    const waived = (await readWaivers(this.paths.state))[stopped.key];
    const why =
      value === undefined
        ? `stop.${stopped.key} removed`
        : waived !== undefined && JSON.stringify(waived) === JSON.stringify(value)
          ? "org up --resume"
          : `stop.${stopped.key} now ${String(value)}`;
    const names = stopped.phase === "grace" ? [] : await this.opts.control.resumeAgents(record);
    await this.timeline(now, "resume", `the stop no longer holds (${why})`, [
      `was: ${stopped.reason}`,
      names.length > 0 ? `restarted: ${names.join(", ")}` : "no agent was stopped yet",
    ]);
    const agents = record.agents.map((agent) => agent.name);
    const body = `# The org goes on\n\nThe stop (${stopped.reason}) no longer holds: ` +
      `${why}. Carry on with your research loop.`;
    if (agents.length > 0)
      await sendMessage(
        this.paths.state,
        { from: "org", to: agents, kind: "resume", body },
        readMessageSettings(config),
        now,
      );
    this.opts.say(`stop: resumed (${why})`);
  }

  /** Experiments of this org's agents still queued or running: a request file stays until its verdict is recorded. */
  private async countQueued(config: OrgConfig, record: OrgRecord): Promise<number> {
    if (!config.verify) return 0;
    const agents = new Set(record.agents.map((agent) => agent.name));
    return (await listQueue(this.paths.state)).filter((request) => agents.has(request.agent)).length;
  }

  private async timeline(now: Date, op: string, title: string, body: string[]): Promise<void> {
    await appendLines(this.paths.log, [formatLogEntry({ date: now, op, title, body: body.join("\n") })]);
  }
}
