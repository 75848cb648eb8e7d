import { ConfigError, OrgError } from "./errors.js";
import type { LoadedConfig } from "./config/index.js";
import { formatLogEntry } from "./log-entry.js";
import { agentPaths, orgPaths, tmuxSocket, type OrgPaths } from "./paths.js";
import { planAgents, type PlannedAgent } from "./plan.js";
import type { PaneSpec } from "./ports.js";
import { prepareAgents } from "./prepare-agents.js";
import { planLeases } from "./reconcile/leases.js";
import type { OrgRecord } from "./state.js";
import type { World } from "./world.js";

export type UpResult =
  | { kind: "already-running"; record: OrgRecord; reason: string }
  | { kind: "started"; record: OrgRecord; createdWorktrees: string[]; warnings: string[]; resumed: boolean };

export const GRID_SIZE = { width: 240, height: 80 };

/** Bring the org up from org.yaml; on a running org change nothing; after a crash resume from state. */
export async function upOrg(world: World, loaded: LoadedConfig): Promise<UpResult> {
  const { config } = loaded;
  const paths = orgPaths(loaded.dir);
  const socket = tmuxSocket(config.name, paths.root);
  const tmux = world.tmux(socket, `org-${config.name}`);
  const previous = JSON.parse((await world.files.readText(paths.orgFile)) ?? "null") as OrgRecord | null;
  if (await tmux.isRunning()) {
    if (!previous) throw new OrgError(`a tmux server on socket ${socket} is running but ${paths.orgFile} is missing — run \`org down\`, then \`org up\``, "state");
    return { kind: "already-running", record: previous, reason: `org ${config.name} is already running (tmux -L ${socket}); nothing changed` };
  }
  await world.files.mkdir(paths.state);
  if (!(await world.files.tryLock(paths.lock))) {
    throw new OrgError(`another \`org up\` holds ${paths.lock} — wait for it to finish`, "locked");
  }
  try {
    const held = new Map((previous?.agents ?? []).map((agent) => [agent.name, agent.gpu]));
    const probed = config.gpus === "none" ? { error: "disabled" } : await world.gpus.probe();
    const leases = planLeases(loaded, probed, held);
    if (!leases.ok) throw new ConfigError(leases.problems);
    const { warnings } = leases;
    const agents = planAgents(config, paths.worktrees, leases.leases);
    const { created } = await prepareAgents(world, loaded, paths, agents);
    const panes: PaneSpec[] = [
      { argv: [...world.orgArgv, "daemon", "--root", paths.root], cwd: paths.root, options: {}, logFile: `${paths.state}/daemon.log` },
      ...agents.map((agent) => agentPaneSpec(world.orgArgv, paths, agent)),
    ];
    const paneIds = await tmux.createGrid(panes, GRID_SIZE).catch(async (error: unknown) => {
      // A half-built grid would look like a running org to the next `org up`.
      await tmux.killServer();
      throw error;
    });
    const record: OrgRecord = {
      version: 1, name: config.name, root: paths.root, repo: loaded.repoDir, base: config.base, baseCommit: loaded.baseCommit,
      socket, session: tmux.session, cpuMode: leases.cpuMode,
      agents: agents.map((agent, index) => ({ name: agent.name, role: agent.role, runtime: agent.runtime, branch: agent.branch, worktree: agent.worktree, gpu: agent.gpu, paneId: paneIds[index + 1] })),
      controlPaneId: paneIds[0], upAt: world.now().toISOString(),
    };
    await world.files.writeAtomic(paths.orgFile, `${JSON.stringify(record, null, 2)}\n`);
    const resumed = previous !== null;
    const leaseText = agents.map((agent) => `${agent.name}:${agent.gpu ?? "cpu"}`).join(" ");
    await world.files.appendLines(paths.log, [formatLogEntry({
      date: world.now(), op: "up", title: `${resumed ? "resumed" : "started"} ${agents.length} agents`,
      body: `leases ${leaseText}; new worktrees ${created.length}; socket ${socket}`,
    })]);
    return { kind: "started", record, createdWorktrees: created, warnings, resumed };
  } finally {
    await world.files.removeFile(paths.lock);
  }
}

/** The pane of one agent: its supervisor, in its worktree, labelled for the border and logged to pane.log. */
export function agentPaneSpec(orgArgv: string[], paths: OrgPaths, agent: Pick<PlannedAgent, "name" | "role" | "gpu" | "worktree">): PaneSpec {
  return {
    argv: [...orgArgv, "supervise", agent.name, "--state", paths.state],
    cwd: agent.worktree,
    options: { "@org_agent": agent.name, "@org_role": agent.role, "@org_gpu": agent.gpu === null ? "cpu" : String(agent.gpu), "@org_status": "starting" },
    logFile: agentPaths(paths.state, agent.name).paneLog,
  };
}
