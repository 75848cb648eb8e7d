import { parseDuration, progressMaxBytes, type OrgConfig } from "../domain/config/index.js";
import { readAgentStatus } from "../domain/lifecycle/agent-status-file.js";
import { filesPort } from "../adapters/fs/files-port.js";
import { parseFrontMatter } from "../domain/front-matter.js";
import { readMessageSettings } from "../domain/messages/mail-port.js";
import { listAgents } from "../domain/lifecycle/plan-agents.js";
import { agentPaths, orgPaths } from "../domain/paths.js";
import { buildLeaderboard } from "../domain/experiments/results-table.js";
import { trimProgress } from "../domain/tasks/task-progress.js";
import { decideStandup } from "../domain/tasks/standup-due.js";
import { renderDigest, type JuniorReport } from "../domain/tasks/standup-digest.js";
import { appendLines, readText } from "../adapters/fs/files.js";
import { readStandupMark, writeStandupMark } from "../adapters/store/standup-mark.js";
import { readUntrusted, sizeUntrusted, writeUntrusted } from "../adapters/fs/untrusted.js";
import { isSmallFileNow } from "../adapters/fs/read-now.js";
import { sendMessage } from "../adapters/store/inbox-files.js";
import { readTrustedRows } from "../adapters/verifier/checked-results.js";

// Both jobs read a few small files; every few seconds is soon enough for a digest due every N minutes. The suites
// look more often (ORG_TEST_STANDUP_TICK_MS, docs/testing.md): their digests are due after a verdict or two.
export const STANDUP_TICK_MS = Number(process.env.ORG_TEST_STANDUP_TICK_MS) || 5000;
// progress.md grows by an agent's own notes: a look at every agent's size twice a minute keeps it near its cap.
const PROGRESS_EVERY_MS = 30_000;

type ReadConfig = () => Promise<{ loaded: { config: OrgConfig } } | { problems: string[] }>;

/** The daemon's upkeep of what agents read: each progress.md kept under its cap, and standup digests for the chief. */
export class StandupScheduler {
  private lastCap = 0;
  private readonly paths;

  constructor(private readonly opts: { root: string; readConfig: ReadConfig; say: (line: string) => void }) {
    this.paths = orgPaths(opts.root);
  }

  /** One look, run by the daemon's loop every STANDUP_TICK_MS: a failure is said, never thrown. */
  async tick(now: Date): Promise<void> {
    await this.work(now).catch((error: Error) => this.opts.say(`standup: ${error.message}`));
  }

  private async work(now: Date): Promise<void> {
    const read = await this.opts.readConfig();
    if (!("loaded" in read)) return;
    const config = read.loaded.config;
    if (now.getTime() - this.lastCap >= PROGRESS_EVERY_MS) {
      this.lastCap = now.getTime();
      await this.capProgress(config);
    }
    if (config.standup) await this.standup(config, now);
  }

  private async capProgress(config: OrgConfig): Promise<void> {
    const max = progressMaxBytes(config);
    for (const agent of listAgents(config)) {
      const files = agentPaths(this.paths.state, agent.name);
      // Most are plainly under the cap: one lstat each, not the walk below.
      if (isSmallFileNow(files.progress, max)) continue;
      // The agent's own file: never followed as a link, nor read past a size cap.
      const size = await sizeUntrusted(files.own, files.progress);
      if (size <= max) continue;
      const text = (await readUntrusted(files.own, files.progress)) ?? "";
      const trimmed = trimProgress(text, max);
      if (!trimmed) continue;
      await appendLines(files.progressArchive, trimmed.archived);
      // The agent may have written meanwhile: its newer text wins, and is trimmed at the next tick.
      const now = await readUntrusted(files.own, files.progress);
      if (now === text) await writeUntrusted(files.own, files.progress, trimmed.kept);
      this.opts.say(
        `progress: moved ${trimmed.archived.length} old lines of ${agent.name}'s progress.md to progress-archive.md`,
      );
    }
  }

  private async standup(config: OrgConfig, now: Date): Promise<void> {
    const settings = config.standup!;
    const agents = listAgents(config);
    const juniorRoles = new Set(
      Object.entries(config.roles)
        .filter(([, role]) => role.reports_to === settings.to)
        .map(([name]) => name),
    );
    const juniors = agents.filter((agent) => juniorRoles.has(agent.role)).map((agent) => agent.name);
    const chiefs = agents.filter((agent) => agent.role === settings.to).map((agent) => agent.name);
    if (juniors.length === 0 || chiefs.length === 0) return;
    // Only the verifier's rows: a forged row never reaches the chief as a junior's result.
    const rows = (await readTrustedRows(this.paths.state)).filter((row) => juniors.includes(row.agent));
    const last = await readStandupMark(this.paths.state);
    const decision = decideStandup({
      now,
      last,
      verdicts: rows.length,
      everyMs: parseDuration(settings.every),
      verdictsEvery: settings.verdicts,
    });
    if (decision.kind === "wait") return;
    if (decision.kind === "due") {
      const board = buildLeaderboard(rows, config.verify?.metric.goal ?? "minimize");
      const reports = await Promise.all(
        juniors.map(async (agent): Promise<JuniorReport> => ({
          agent,
          state: await this.readState(agent),
          task: await this.readTask(agent),
          rows: rows.filter((row) => row.agent === agent),
          standing: board.agents.find((standing) => standing.agent === agent),
        })),
      );
      const messages = readMessageSettings(config);
      const body = renderDigest({
        now,
        reason: decision.reason,
        metric: config.verify?.metric.name ?? "metric",
        juniors: reports,
        latest: settings.results,
        maxBytes: messages.max_bytes,
        best: board.best,
      });
      const { id } = await sendMessage(
        this.paths.state,
        { from: "org", to: chiefs, kind: "standup", body },
        messages,
        now,
      );
      this.opts.say(`standup ${id} to ${chiefs.join(", ")}: ${decision.reason}`);
    }
    await writeStandupMark(this.paths.state, { at: now.toISOString(), verdicts: rows.length });
  }

  private async readState(agent: string): Promise<string> {
    const status = await readAgentStatus(filesPort, this.paths.state, agent);
    if (!status) return "not started";
    return status.state === "running" ? "running" : `${status.state}: ${status.reason}`;
  }

  private async readTask(agent: string): Promise<JuniorReport["task"]> {
    const text = await readText(agentPaths(this.paths.state, agent).task);
    if (text === undefined) return undefined;
    const parsed = parseFrontMatter(text, "from: chief-1");
    if (!parsed.ok) return { from: "?", time: "", title: `unreadable task.md (line ${parsed.line}: ${parsed.reason})` };
    const title =
      parsed.body
        .split("\n")
        .map((line) => line.replace(/^#+\s*/, "").trim())
        .find((line) => line !== "") ?? "(empty)";
    return { from: parsed.fields.get("from")?.value ?? "?", time: parsed.fields.get("time")?.value ?? "", title };
  }
}
