import { orgPaths } from "../paths.js";
import { readAgentStatuses } from "../lifecycle/agent-status-file.js";
import { buildSnapshot, type JobView, type OrgSnapshot } from "./snapshot.js";
import type { FilesPort, GitPort, PaneInfo, PanesPort, ProcessPort } from "../ports.js";
import type { AgentStatus, OrgRecord } from "../state.js";
import { readJobRecord } from "../slurm/slurm-job-file.js";
import { readOrgRecord } from "../lifecycle/org-record-file.js";
import { abRunPath, findAgentProgram, parseAbRun } from "../config-versions/ab-run-record.js";

/** What a snapshot reads the org through: the world, or the part of it `org status` loads. */
export interface SnapshotWorld {
  files: Pick<FilesPort, "readText">;
  git: Pick<GitPort, "branchHeads">;
  processes: Pick<ProcessPort, "isAlive">;
  panes(socket: string, session: string): Pick<PanesPort, "listPanes">;
  now(): Date;
}

/**
 * Read state, one tmux call and the branch heads into a snapshot;
 * a caller that already holds panes or heads passes them.
 */
export async function readSnapshot(world: SnapshotWorld, root: string, known: {
  panes?: PaneInfo[]; branches?: (record: OrgRecord) => Promise<Map<string, string>>; record?: OrgRecord;
} = {}): Promise<OrgSnapshot> {
  const paths = orgPaths(root);
  // A record in hand: tmux and git start before this call returns, so what the caller reads next overlaps them.
  const record = known.record ?? (await readOrgRecord(world.files, root));
  const tmux = world.panes(record.socket, record.session);
  const names = record.agents.map((agent) => agent.name);
  // tmux, git and the files side by side: each waits on its own process or disk, none on another's answer.
  const [panes, statuses, branches, jobs, abText] = await Promise.all([
    known.panes ?? tmux.listPanes(),
    readStatuses(world, paths.state, names),
    (known.branches ? known.branches(record) : world.git.branchHeads(record.repo, `org/${record.name}/`)).catch(
      () => new Map<string, string>(),
    ),
    record.backend === "slurm" ? readJobStatuses(world, paths.state, names) : undefined,
    world.files.readText(abRunPath(paths.state)),
  ]);
  const running = panes.length > 0;
  const heads = new Map(record.agents.map((agent) => [agent.name, branches.get(agent.branch) ?? null]));
  const snapshot = buildSnapshot({
    record,
    running,
    panes,
    statuses,
    heads,
    jobs,
    isAlive: world.processes.isAlive,
    now: world.now(),
  });
  const ab = parseAbRun(abText);
  return ab
    ? {
        ...snapshot,
        ab,
        agents: snapshot.agents.map((agent) => ({ ...agent, program: findAgentProgram(ab, agent.name) })),
      }
    : snapshot;
}

/** Under Slurm, what each agent's job is doing, as its pane's `org slurm-run` last wrote it. */
async function readJobStatuses(world: SnapshotWorld, state: string, agents: string[]): Promise<Map<string, JobView>> {
  const entries = await Promise.all(agents.map(async (agent) => {
    const record = await readJobRecord(world.files, state, agent);
    if (!record) return [];
    const { job } = record;
    const gpus = job.kind === "running" ? job.gpus : [];
    const node = "node" in job && job.node ? { node: job.node } : {};
    return [[agent, { status: record.status, gpus, id: record.id, ...node }] as const];
  }));
  return new Map(entries.flat());
}

/** Every agent's status; a missing one (not written yet) or one of another shape is undefined. */
export function readStatuses(world: Pick<SnapshotWorld, "files">, state: string, agents: string[]):
  Promise<Map<string, AgentStatus | undefined>> {
  return readAgentStatuses(world.files, state, agents);
}
