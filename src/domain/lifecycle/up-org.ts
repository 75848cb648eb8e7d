import { ConfigError, OrgError } from "../errors.js";
import type { LoadedConfig } from "../config/index.js";
import { formatLogEntry } from "../log-entry.js";
import { agentPaths, orgPaths, PTY_SOCKET_PREFIX, ptyGridSocket, tmuxSocket, type OrgPaths } from "../paths.js";
import { planAgents, type PlannedAgent } from "./plan-agents.js";
import type { PaneInfo, PaneSpec } from "../ports.js";
import { prepareAgents } from "./prepare-agents.js";
import { planLeases } from "../reconcile/leases.js";
import type { AgentStatus, LaunchSpec, OrgRecord } from "../state.js";
import { paneLaunch } from "./supervise-step.js";
import { writeAgentStatus } from "./agent-status-file.js";
import type { World } from "../world.js";
import { readOptionalOrgRecord, toAgentRecord, writeOrgRecord } from "./org-record-file.js";
import type { AgentSandbox } from "../sandbox/layout.js";
import { daemonLaunch, markDaemonStarting, respawnDeadDaemon } from "./daemon-pane.js";
import { stopGrid } from "./stop-grid.js";

export type UpResult =
  | { kind: "already-running"; record: OrgRecord; reason: string }
  | {
    kind: "started"; record: OrgRecord; createdWorktrees: string[]; warnings: string[]; resumed: boolean;
    panes: PaneInfo[]; heads: Map<string, string>;
  };

const GRID_SIZE = { width: 240, height: 80 };

/** The phases of `org up`, in order: the CLI reports them, and an interrupt before "record" rolls back. */
export type UpPhase = "check" | "plan" | "worktrees" | "grid" | "record" | "keeper" | "wait";

export interface UpOptions {
  mode?: "tmux" | "pty";
  onStart?: () => Promise<void>;
  /** Called as each phase begins. */
  onPhase?: (phase: UpPhase) => Promise<void>;
  /** Whether SIGINT or SIGTERM arrived: before the grid is recorded, up stops and takes down what it started. */
  interrupted?: () => boolean;
}

/** Bring the org up from org.yaml; on a running org change nothing; after a crash resume from state. */
export async function upOrg(world: World, loaded: LoadedConfig, opts: UpOptions = {}): Promise<UpResult> {
  const { config } = loaded;
  const paths = orgPaths(loaded.dir);
  // The daemon's pane, with the secrets it holds for the agents: for a first start and for a restart alike.
  const daemon = daemonLaunch(world.orgArgv, paths, world.secretEnv(declaredSecrets(config)));
  // The trial sandbox (a bwrap start) runs while tmux and git are asked; prepareAgents takes its answer.
  if (config.sandbox?.enabled !== false) void world.sandbox.probe();
  // A half-written org.json (an interrupted writer) holds nothing to resume: leases and pool are planned afresh.
  const previous = (await readOptionalOrgRecord(world.files, paths.root).catch(() => undefined)) ?? null;
  const enter = async (phase: UpPhase) => {
    await opts.onPhase?.(phase);
    if (opts.interrupted?.()) throw new OrgError(`interrupted before ${phase}`, "interrupted");
  };
  const wanted = opts.mode === "pty" ? ptyGridSocket(paths.state) : tmuxSocket(config.name, paths.root);
  // Still up in the other mode (tmux or pty), the org is the running one: switching needs `org down` first.
  const moved = previous && previous.socket !== wanted;
  const other = moved && (await world.panes(previous.socket, previous.session).isRunning());
  const socket = other ? previous.socket : wanted;
  const tmux = world.panes(socket, `org-${config.name}`);
  if (await tmux.isRunning()) {
    if (!previous) {
      const why = `a tmux server on socket ${socket} is running but ${paths.orgFile} is missing or unreadable`;
      throw new OrgError(`${why} — run \`org down\`, then \`org up\``, "state");
    }
    // Agents outlive their daemon (killed, crashed): bring back the supervisor and verifier, touch nothing else.
    const control = (await tmux.listPanes()).find((pane) => pane.id === previous.controlPaneId);
    if (control?.dead) {
      // Its keeper may restart it in the same moment: under up.lock, only one of the two does.
      const respawn = await respawnDeadDaemon(world, paths, previous, daemon);
      if (respawn.kind === "restarted") {
        const status = control.deadStatus ?? control.deadSignal ?? "?";
        const body = `its pane had exited (status ${status}); agents kept running`;
        await world.files.appendLines(
          paths.log,
          [formatLogEntry({ date: world.now(), op: "up", title: "restarted the daemon", body })],
        );
        const reason = `org ${config.name} is running; its daemon had exited and was restarted (agents untouched)`;
        return { kind: "already-running", record: previous, reason };
      }
      if (respawn.kind === "busy") throw new OrgError(
        `${respawn.reason} — wait for it to finish, then \`org up\` again`,
        "locked",
      );
      return {
        kind: "already-running",
        record: previous,
        reason: `org ${config.name} is running; `
          + `its daemon had exited; ${respawn.kind === "alive" ? "its keeper restarted it" : respawn.reason}`,
      };
    }
    const grid = socket.startsWith(PTY_SOCKET_PREFIX)
      ? `without tmux, pty host at ${socket.slice(PTY_SOCKET_PREFIX.length)}`
      : `tmux -L ${socket}`;
    return {
      kind: "already-running",
      record: previous,
      reason: `org ${config.name} is already running (${grid}); nothing changed`,
    };
  }
  await world.files.mkdir(paths.state);
  if (!(await world.files.tryLock(paths.lock))) {
    throw new OrgError(`another \`org up\` holds ${paths.lock} — wait for it to finish`, "locked");
  }
  try {
    await enter("plan");
    const held = new Map((previous?.agents ?? []).map((agent) => [agent.name, agent.gpu]));
    // Under Slurm the allocation names the GPU; this host's GPUs are none of our business.
    const probed = config.gpus === "none" || config.backend === "slurm"
      ? { error: "disabled" }
      : await world.gpus.probe();
    const leases = planLeases(loaded, probed, held, undefined, previous?.pool);
    if (!leases.ok) throw new ConfigError(leases.problems);
    const warnings = [...leases.warnings];
    const agents = planAgents(config, paths.worktrees, leases.leases);
    await enter("worktrees");
    const { created, launches, heads, sandbox, sandboxes, reclaimed } = await prepareAgents(
      world,
      loaded,
      paths,
      agents,
      socket,
    );
    if (sandbox.kind === "unavailable") warnings.push(sandbox.warning);
    const left = "a link or special file where org writes, left by an agent of an older org";
    for (const path of reclaimed) warnings.push(`removed ${path}: ${left}`);
    const panes: PaneSpec[] = [
      // The daemon holds the declared secrets (in memory only) to give them to agents it restarts or adds.
      { ...daemon, options: {}, logFile: `${paths.state}/daemon.log` },
      ...agents.map((agent) =>
        agentPaneSpec(
          paths,
          agent,
          launches.get(agent.name)!,
          world.secretEnv(launches.get(agent.name)!.passEnv ?? []),
          sandboxes.get(agent.name),
        )),
    ];
    if (opts.interrupted?.()) throw new OrgError("interrupted before grid", "interrupted");
    // Not `enter`: a signal as the grid starts is answered once it stands, by taking it down.
    await opts.onPhase?.("grid");
    const listed = await tmux.createGrid(panes, GRID_SIZE).catch(async (error: unknown) => {
      // A half-built grid would look like a running org to the next `org up`: its panes are ended with it.
      await stopGrid(world, tmux);
      throw error;
    });
    // Interrupted while the grid was built: no org.json yet, so it is taken down rather than recorded.
    if (opts.interrupted?.()) {
      await stopGrid(world, tmux, { controlPaneId: listed[0]!.id });
      throw new OrgError("interrupted while the grid started", "interrupted");
    }
    // From here the org is recorded whatever arrives: a few file writes, then it is up and consistent.
    await opts.onPhase?.("record");
    const record: OrgRecord = {
      version: 1,
      name: config.name,
      root: paths.root,
      repo: loaded.repoDir,
      base: config.base,
      baseCommit: loaded.baseCommit,
      socket,
      session: tmux.session,
      mode: socket.startsWith(PTY_SOCKET_PREFIX) ? "pty" : "tmux",
      cpuMode: leases.cpuMode,
      backend: config.backend,
      ...(leases.pool ? { pool: leases.pool } : {}),
      agents: agents.map((agent, index) => toAgentRecord(agent, listed[index + 1]!.id)),
      controlPaneId: listed[0]!.id, upAt: world.now().toISOString(),
    };
    // Before org.json, which the daemon waits for: its supervisor then adopts running agents instead of starting them,
    // and its first reload finds the program `org up` started already recorded.
    // None needs another: written side by side, all before org.json.
    const startedAt = world.now();
    await Promise.all([
      opts.onStart?.(), recordStarts(world, paths, listed, startedAt), markDaemonStarting(world, paths),
    ]);
    await writeOrgRecord(world.files, paths, record);
    const resumed = previous !== null;
    const leaseText = agents.map((agent) => `${agent.name}:${agent.gpu ?? (leases.pool?.length ? "pool" : "cpu")}`)
      .join(" ");
    const poolSlots = leases.pool && leases.pool.length > 0 ? `GPUs ${leases.pool.join(", ")}` : "CPU slots";
    const poolText = leases.pool ? `; verify pool ${poolSlots}` : "";
    await world.files.appendLines(paths.log, [formatLogEntry({
      date: world.now(), op: "up", title: `${resumed ? "resumed" : "started"} ${agents.length} agents`,
      body: `leases ${leaseText}${poolText}; new worktrees ${created.length}; socket ${socket}`,
    })]);
    return { kind: "started", record, createdWorktrees: created, warnings, resumed, panes: listed, heads };
  } finally {
    await world.files.removeFile(paths.lock);
  }
}

/**
 * The pane of one agent: its program, in its worktree with its environment (in its sandbox),
 * labelled for the border and logged to pane.log.
 */
export function agentPaneSpec(
  paths: OrgPaths, agent: Pick<PlannedAgent, "name" | "role" | "gpu">, launch: LaunchSpec,
  secrets: Record<string, string> = {}, sandbox?: AgentSandbox,
): PaneSpec {
  return {
    ...paneLaunch(launch, secrets, sandbox),
    options: {
      "@org_agent": agent.name,
      "@org_role": agent.role,
      "@org_gpu": agent.gpu === null ? "cpu" : String(agent.gpu),
      "@org_status": "running",
    },
    logFile: agentPaths(paths.state, agent.name).paneLog,
  };
}

/** Every secret any runtime of the org declares in pass_env. */
export function declaredSecrets(config: LoadedConfig["config"]): string[] {
  return [...new Set(Object.values(config.runtimes).flatMap((runtime) => runtime.pass_env ?? []))];
}

/**
 * Each live agent pane's program as started, in status.json and events.jsonl, as the supervisor would; a pane already
 * dead is left "starting" with a fresh restart budget, for the supervisor's first look to judge its exit.
 */
export async function recordStarts(world: World, paths: OrgPaths, panes: PaneInfo[], now: Date): Promise<void> {
  const at = now.toISOString();
  await Promise.all(panes.map(async (pane) => {
    const agent = pane.options["@org_agent"];
    if (!agent) return;
    const files = agentPaths(paths.state, agent);
    if (pane.dead) return writeStartingStatus(world, paths, agent, now);
    const status: AgentStatus = {
      agent,
      state: "running",
      pid: pane.pid,
      startedAt: at,
      restarts: 0,
      consecutiveFailures: 0,
      lastExit: null,
      reason: "started by org up",
      updatedAt: at,
    };
    await writeAgentStatus(world.files, paths.state, agent, status);
    await world.files.appendLines(
      files.events,
      [JSON.stringify({ at, type: "start", pid: pane.pid, code: null, signal: null, durationMs: null })],
    );
    // A fresh start's argv carries the kickoff: nothing an earlier resume left pending is typed into it.
    await world.files.removeFile(files.resumeKickoff);
  }));
}

/** An agent about to get its pane: "starting" with a fresh restart budget, so a first look judges whatever it finds. */
export async function writeStartingStatus(world: World, paths: OrgPaths, agent: string, now: Date): Promise<void> {
  const status: AgentStatus = {
    agent, state: "starting", pid: null, startedAt: null, restarts: 0, consecutiveFailures: 0, lastExit: null,
    reason: "waiting for its pane", updatedAt: now.toISOString(),
  };
  await writeAgentStatus(world.files, paths.state, agent, status);
}
