import { toAgentRecord, writeOrgRecord } from "../lifecycle/org-record-file.js";
import type { LoadedConfig } from "../config/index.js";
import { agentPaths, sandboxFile, type OrgPaths } from "../paths.js";
import { describeDamagedSandbox, parseAgentSandbox } from "../sandbox/prepare-sandboxes.js";
import type { PanesPort } from "../ports.js";
import { prepareAgents } from "../lifecycle/prepare-agents.js";
import type { AgentRecord, OrgRecord } from "../state.js";
import { readAgentStatus, writeAgentStatus } from "../lifecycle/agent-status-file.js";
import { prepareSlurmAgents } from "../slurm/prepare-jobs.js";
import { agentPaneSpec, recordStarts, writeStartingStatus } from "../lifecycle/up-org.js";
import type { World } from "../world.js";
import type { Action, DesiredOrg, ObservedAgent } from "./org-states.js";
import { writeLaunchSpec } from "../lifecycle/launch-file.js";

// As `org down`: an agent gets this long to exit after SIGTERM before its group is killed.
const STOP_GRACE_MS = 3000;

export interface ApplyInput {
  /** Its orgArgv and basePath are the running org's, so new agents launch like the others. */
  world: World;
  /** The new org.yaml, with baseCommit pinned to the running org's. */
  loaded: LoadedConfig;
  paths: OrgPaths;
  record: OrgRecord;
  desired: DesiredOrg;
  actions: Action[];
  tmux: PanesPort;
}

/**
 * Carry out reconcile's actions: removals, then restarts, then additions, then the layout;
 * org.json is rewritten after each step.
 */
export async function applyActions(input: ApplyInput): Promise<OrgRecord> {
  const { world, paths, tmux } = input;
  let record: OrgRecord = { ...input.record, agents: [...input.record.agents] };
  const save = async (agents: AgentRecord[]) => {
    record = { ...record, agents };
    await writeOrgRecord(world.files, paths, record);
  };
  const of = <K extends Action["kind"]>(kind: K) =>
    input.actions.filter((action): action is Extract<Action, { kind: K }> => action.kind === kind);

  const removes = of("remove-agent");
  if (removes.length > 0) {
    // Panes first lose their processes: kill-pane alone would only hang them up.
    await Promise.all(removes.map((action) =>
      markStatus(world, paths, action.agent.record.name, "stopped", "removed from org.yaml")));
    await Promise.all(removes.map((action) => stopAgent(world, action.agent)));
    await tmux.killPanes(removes.flatMap((action) => (action.agent.pane ? [action.agent.pane.id] : [])));
    const gone = new Set(removes.map((action) => action.agent.record.name));
    await save(record.agents.filter((agent) => !gone.has(agent.name)));
  }

  const restarts = of("restart-agent");
  // An agent the stop holds gets its new files only: the stop's resume starts it from them.
  const rewritten = [...restarts, ...of("update-held-agent")];
  for (const { agent } of rewritten) {
    const files = agentPaths(paths.state, agent.name);
    await world.files.writeAtomic(files.prompt, agent.prompt);
    await writeLaunchSpec(world.files, paths.state, agent.name, agent.launch);
    // Started afresh with its kickoff in the argv (or by the stop's resume, which pends its own).
    await world.files.removeFile(files.resumeKickoff);
  }
  // A job agent's job request holds its real launch; rewritten, the next job step runs the new one.
  await prepareSlurmAgents(
    world.files,
    input.loaded.config,
    paths.state,
    world.orgArgv,
    rewritten.map((action) => action.agent),
    new Map(rewritten.map((action) => [action.agent.name, action.agent.raw])),
  );
  // The old program is gone before the new one starts; marked first, so the supervisor does not
  // restart it by policy meanwhile.
  await Promise.all(restarts.map((action) =>
    markStatus(world, paths, action.agent.name, "restarting", `restarting: ${action.changes.join(", ")} changed`)));
  await Promise.all(restarts.map((action) => stopAgent(world, action.observed)));
  for (const { agent, observed } of restarts) {
    const paneId = observed.pane!.id;
    const file = sandboxFile(paths.state, agent.name);
    const written = parseAgentSandbox(await world.files.readText(file));
    if (written.kind === "damaged") throw new Error(describeDamagedSandbox(file, written.reason));
    const sandbox = written.kind === "sandboxed" ? written.sandbox : undefined;
    const pane = agentPaneSpec(paths, agent, agent.launch, world.secretEnv(agent.launch.passEnv ?? []), sandbox);
    await tmux.setPaneOptions(paneId, pane.options);
    await tmux.respawnPane(paneId, { argv: pane.argv, cwd: pane.cwd, env: pane.env ?? {} });
    await save(record.agents.map((entry) => (entry.name === agent.name ? toAgentRecord(agent, paneId) : entry)));
  }
  for (const { agent, observed } of of("update-held-agent")) await save(record.agents.map((entry) =>
    (entry.name === agent.name ? toAgentRecord(agent, observed.record.paneId) : entry)));

  const adds = of("add-agent");
  if (adds.length > 0) {
    const { sandboxes } = await prepareAgents(
      world,
      input.loaded,
      paths,
      adds.map((action) => action.agent),
      record.socket,
    );
    // Before the panes: the running supervisor may look at one first, and must not judge it by
    // an earlier agent's status.
    await Promise.all(adds.map((action) => writeStartingStatus(world, paths, action.agent.name, world.now())));
    const ids = await tmux.addPanes(adds.map((action) =>
      agentPaneSpec(
        paths,
        action.agent,
        action.agent.launch,
        world.secretEnv(action.agent.launch.passEnv ?? []),
        sandboxes.get(action.agent.name),
      )));
    // Recorded now, not at the supervisor's next look: a reload is done when the new agents run.
    const fresh = new Set(ids);
    await recordStarts(world, paths, (await tmux.listPanes()).filter((pane) => fresh.has(pane.id)), world.now());
    const added = new Map(adds.map((action, index) => [action.agent.name, toAgentRecord(action.agent, ids[index])]));
    await save([...record.agents.filter((agent) => !added.has(agent.name)), ...added.values()]);
  }

  // addPanes re-tiles as it splits; only removals leave holes to close.
  if (of("retile").length > 0 && removes.length > 0) await tmux.retile();
  // org.json lists agents in org.yaml order, as `org up` writes it.
  const order = new Map(input.desired.agents.map((agent, index) => [agent.name, index]));
  const { pool: _, ...rest } = record;
  record = { ...rest, cpuMode: input.desired.cpuMode, ...(input.desired.pool ? { pool: input.desired.pool } : {}) };
  await save([...record.agents].sort((a, b) => (order.get(a.name) ?? 0) - (order.get(b.name) ?? 0)));
  return record;
}

// A restart an hour away is one the supervisor leaves alone: whoever marked it starts the agent.
const HELD_MS = 3_600_000;

async function markStatus(
  world: World, paths: OrgPaths, agent: string, state: "stopped" | "restarting", reason: string,
): Promise<void> {
  const status = await readAgentStatus(world.files, paths.state, agent);
  if (!status) return;
  const now = world.now();
  const restartAt = state === "restarting" ? new Date(now.getTime() + HELD_MS).toISOString() : null;
  const updatedAt = now.toISOString();
  await writeAgentStatus(world.files, paths.state, agent, { ...status, state, reason, restartAt, updatedAt });
}

async function stopAgent(world: World, agent: ObservedAgent): Promise<void> {
  const pid = agent.pane && !agent.pane.dead ? agent.pane.pid : agent.programPid;
  // Only a live group: programPid is status.json's only while its process is the program recorded (observe.ts).
  if (pid && world.processes.isAlive(-pid)) await world.processes.killGroup(pid, STOP_GRACE_MS);
}
