import { formatLogEntry } from "../domain/log-entry.js";
import { agentPaths, logPath } from "../domain/paths.js";
import type { AgentPane, PaneHost } from "../domain/ports.js";
import type { AgentState, AgentStatus, LaunchSpec } from "../domain/state.js";
import { readAgentStatus, writeAgentStatus } from "../domain/lifecycle/agent-status-file.js";
import { filesPort } from "../adapters/fs/files-port.js";
import { explainSpawnError, type ProgramExit } from "../domain/lifecycle/supervise.js";
import { loadLaunchSpec } from "../domain/lifecycle/launch-file.js";
import { exitTime, paneLaunch, stepAgent, type SupervisionStep } from "../domain/lifecycle/supervise-step.js";
import { chooseStartArgv } from "../domain/runtimes/launch.js";
import { appendLines } from "../adapters/fs/files.js";
import { hasConversation, programCandidates } from "../adapters/probes/runtime.js";
import { pickEnv } from "../domain/lifecycle/secrets.js";
import { isRefusedSandbox, readAgentSandbox } from "../adapters/store/agent-sandbox.js";
import { usage } from "../adapters/usage/counters.js";
import { canAccess, isDirectory } from "../adapters/fs/dir.js";
import { noteRestart } from "./resume-kickoff-service.js";

const LOG_RETRY_MS = 10_000;

/**
 * The one supervisor of every agent: each tick lists all panes in one tmux command, and only an agent whose
 * pane changed (a new pid, a death) or whose restart is due costs a file read. Agent programs run in their
 * panes directly, so they outlive this process: a daemon killed and started again adopts them.
 */
export class PaneSupervisor {
  /** Per agent, the pane as last seen and settled: an unchanged pane needs no look at status.json. */
  private readonly seen = new Map<string, string>();
  private ticking = false;
  /** The last listing and when it was made: the screen watch reuses it rather than list the panes again. */
  private listed: { at: number; panes: AgentPane[] } | undefined;

  constructor(
    private readonly state: string,
    private readonly host: PaneHost,
    private readonly say: (line: string) => void = () => undefined,
    /** Reads a dead pane's last screen: why a person must act (not logged in, offline), or undefined. */
    private readonly whyBlocked: (pane: AgentPane) => Promise<string | undefined> = async () => undefined,
  ) {}

  /** One look at every pane; true when every agent is settled (no restart pending, nothing left to record). */
  async tick(now = Date.now()): Promise<boolean> {
    if (this.ticking) return false;
    this.ticking = true;
    try {
      const panes = await this.host.listAgentPanes();
      usage.polls++;
      this.listed = panes && { at: Date.now(), panes };
      // A Set, not a scan per key: 64 panes would cost 4096 string compares a look.
      const shown = new Set((panes ?? []).map((pane) => `${pane.id} ${pane.pid}`));
      for (const key of this.logAsked.keys()) {
        if (!shown.has(key.slice(0, key.lastIndexOf(" ")))) this.logAsked.delete(key);
      }
      // Logged first: a dead pane's last screen goes to its log before a restart replaces it.
      for (const pane of panes ?? []) if (pane.logged === false) await this.startLog(pane, now);
      for (const pane of panes ?? [])
        await this.superviseOne(pane, now).catch((error: Error) =>
          this.say(`supervisor: ${pane.agent}: ${error.message}`),
        );
      return (
        panes !== undefined &&
        panes.every((pane) => this.seen.get(pane.agent) === `${pane.id} ${pane.pid} ${pane.dead}`)
      );
    } finally {
      this.ticking = false;
    }
  }

  /** Until the next tick: `busyMs` while something is pending, else `idleMs` unless the host reports a change first. */
  async pause(settled: boolean, busyMs: number, idleMs: number): Promise<void> {
    if (!settled || !this.host.waitForChange) return new Promise((resolve) => setTimeout(resolve, busyMs));
    await this.host.waitForChange(idleMs);
  }

  /**
   * Hands the live and dead agent panes to `look` (the screen watch), listed through the same host; a listing of the
   * supervisor's own no older than `maxAgeMs` serves as is (a pane's death wakes the supervisor's look at once).
   */
  async watchScreens(look: (panes: AgentPane[]) => Promise<unknown>, maxAgeMs = 0): Promise<void> {
    const fresh = this.listed && Date.now() - this.listed.at <= maxAgeMs ? this.listed.panes : undefined;
    const panes = fresh ?? (await this.host.listAgentPanes());
    if (panes) await look(panes);
  }

  close(): void {
    this.host.close();
  }

  /** When each pane (and program) was last asked to start logging: a failed attempt is retried, but not every tick. */
  private readonly logAsked = new Map<string, number>();

  private async startLog(pane: AgentPane, now: number): Promise<void> {
    const key = `${pane.id} ${pane.pid} ${pane.dead}`;
    const asked = this.logAsked.get(key);
    // A dead pane's screen is written once; a live pane without a pipe is asked again now and then.
    if (!this.host.startLog || (asked !== undefined && (pane.dead || now - asked < LOG_RETRY_MS))) return;
    this.logAsked.set(key, now);
    await this.host
      .startLog(pane.id, agentPaths(this.state, pane.agent).paneLog, pane.dead)
      .catch((error: Error) => this.say(`supervisor: ${pane.agent}: ${error.message}`));
  }

  private async superviseOne(pane: AgentPane, now: number): Promise<void> {
    const key = `${pane.id} ${pane.pid} ${pane.dead}`;
    if (this.seen.get(pane.agent) === key) return;
    const [status, spec] = await Promise.all([
      readAgentStatus(filesPort, this.state, pane.agent),
      loadLaunchSpec(filesPort, this.state, pane.agent),
    ]);
    if (typeof spec === "string") {
      this.say(`${pane.agent}: ${spec}`);
      this.seen.set(pane.agent, key);
      return;
    }
    const exitError =
      pane.dead && (pane.exitCode === 126 || pane.exitCode === 127) ? await explainNeverRan(spec) : undefined;
    const broken = pane.dead && pane.exitCode === 127 && !exitError ? explainBrokenProgram(spec) : undefined;
    const blocked =
      broken ??
      (pane.dead && status?.state !== "failed" && status?.state !== "stopped"
        ? await this.whyBlocked(pane)
        : undefined);
    const step = stepAgent({ status, pane, spec, now, exitError, blocked });
    await this.apply(step, pane, status, spec, now);
    // A pending restart keeps the agent looked at every tick until it is due.
    if (step.kind === "steady" && status?.state !== "restarting") this.seen.set(pane.agent, key);
    else this.seen.delete(pane.agent);
  }

  private async apply(
    step: SupervisionStep,
    pane: AgentPane,
    status: AgentStatus | undefined,
    spec: LaunchSpec,
    now: number,
  ): Promise<void> {
    const paths = agentPaths(this.state, pane.agent);
    const at = new Date(now).toISOString();
    const base: AgentStatus = status ?? {
      agent: pane.agent,
      state: "starting",
      pid: null,
      startedAt: null,
      restarts: 0,
      consecutiveFailures: 0,
      lastExit: null,
      reason: "",
      updatedAt: at,
    };
    const write = async (next: AgentStatus) => {
      await writeAgentStatus(filesPort, this.state, pane.agent, next);
      if (next.state !== status?.state) await this.host.setStatus(pane.id, next.state).catch(() => undefined);
    };
    const event = (fields: Record<string, unknown>) => appendLines(paths.events, [JSON.stringify({ at, ...fields })]);
    // An exit goes once to the events and comes back as status.json's lastExit.
    const recordExit = async (exit: ProgramExit, endedAt: number, reason: string): Promise<AgentStatus["lastExit"]> => {
      const { code, signal } = exit;
      const durationMs = Math.max(0, endedAt - exit.startedAt);
      await event({ type: "exit", pid: pane.pid, code, signal, durationMs, reason });
      return { code, signal, at: new Date(endedAt).toISOString(), pid: pane.pid };
    };
    const program = spec.argv[0]!;
    if (step.kind === "started") {
      // Started again by a person after it failed or stopped: the restart budget starts over.
      const fresh = base.state === "failed" || base.state === "stopped" ? { consecutiveFailures: 0 } : {};
      await event({ type: "start", pid: step.pid, code: null, signal: null, durationMs: null });
      await write({
        ...base,
        ...fresh,
        state: "running",
        pid: step.pid,
        startedAt: at,
        restartAt: null,
        reason: `running ${program}`,
        updatedAt: at,
      });
    } else if (step.kind === "exited") {
      const { decision, exit } = step;
      const endedAt = exitTime(pane, now);
      const state: AgentState = ({ restart: "restarting", "give-up": "failed", done: "stopped" } as const)[
        decision.kind
      ];
      const restartAt = decision.kind === "restart" ? new Date(endedAt + decision.delayMs).toISOString() : null;
      const lastExit = await recordExit(exit, endedAt, decision.reason);
      await write({
        ...base, ...decision.history, state, pid: null, restartAt, lastExit, reason: decision.reason, updatedAt: at,
      });
      if (decision.kind !== "done")
        await this.timeline(decision.kind === "restart" ? "restart" : "failed", pane.agent, decision.reason, now);
    } else if (step.kind === "blocked") {
      const lastExit = await recordExit(step.exit, exitTime(pane, now), `blocked: ${step.reason}`);
      const reason = step.reason;
      await write({ ...base, state: "blocked", pid: null, restartAt: null, lastExit, reason, updatedAt: at });
      if (status?.state !== "blocked") await this.timeline("blocked", pane.agent, step.reason, now);
    } else if (step.kind === "respawn") {
      // A CLI that keeps conversations resumes its own by id rather than starting over.
      const start = spec.runtime
        ? chooseStartArgv(spec, await hasConversation(spec.runtime))
        : { argv: spec.argv, resumed: false };
      // Secrets the runtime declares come from our own environment, never from a file.
      // launch.json (restart, passEnv, argv) is written by org up and reload from org.yaml into state/agents/<agent>/,
      // which the agent's sandbox mounts read-only; the sandbox itself comes from state/sandbox/.
      const sandbox = await readAgentSandbox(this.state, pane.agent);
      if (isRefusedSandbox(sandbox)) {
        await write({ ...base, state: "failed", pid: null, restartAt: null, reason: sandbox.refused, updatedAt: at });
        return this.timeline("failed", pane.agent, sandbox.refused, now);
      }
      const launch = paneLaunch({ ...spec, argv: start.argv }, pickEnv(process.env, spec.passEnv ?? []), sandbox);
      await noteRestart(this.state, spec, pane.id, start.resumed, now);
      await this.host.respawn(pane.id, launch, pane.logged === false ? paths.paneLog : undefined);
      if (start.resumed) await event({ type: "resume", pid: null, code: null, signal: null, durationMs: null });
      // The run's start, should it die before the next look sees it alive.
      const started = { ...base, startedAt: at, restartAt: null, updatedAt: at };
      await writeAgentStatus(filesPort, this.state, pane.agent, started);
    }
  }

  private async timeline(op: string, agent: string, reason: string, now: number): Promise<void> {
    await appendLines(logPath(this.state), [formatLogEntry({ date: new Date(now), op, title: agent, body: reason })]);
  }
}

// Exit 126/127 is also what a shell reports for a missing program: look before blaming the program's own code.
async function explainNeverRan(spec: LaunchSpec): Promise<string | undefined> {
  const cwdExists = await isDirectory(spec.cwd);
  const program = spec.argv[0]!;
  const candidates = programCandidates(program, spec.cwd, spec.env.PATH ?? process.env.PATH ?? "");
  const found = await firstAccessible(candidates, "exists");
  if (cwdExists && found && (await canAccess(found, "execute"))) return undefined;
  const code = !found ? "ENOENT" : "EACCES";
  return explainSpawnError({ code, message: code }, spec, cwdExists).error;
}

// The program is there, so its own 127 is a command it runs that is missing: every restart would end the same way.
function explainBrokenProgram(spec: LaunchSpec): string {
  const program = spec.argv[0]!;
  return `exit 127 from ${program} itself: a command it runs is not installed (a broken install or wrapper) — ` +
    `run \`${program} --version\` by hand to see what is missing, fix it, then restart ${spec.agent}`;
}

async function firstAccessible(paths: string[], mode: "exists" | "execute"): Promise<string | undefined> {
  for (const path of paths) if (await canAccess(path, mode)) return path;
  return undefined;
}
