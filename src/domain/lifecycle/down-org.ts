import { formatLogEntry } from "../log-entry.js";
import { orgPaths } from "../paths.js";
import type { OrgRecord } from "../state.js";
import { readAgentStatus } from "./agent-status-file.js";
import { findRecordedProgram } from "./recorded-program.js";
import { removeDaemonFile } from "./daemon-file.js";
import type { World } from "../world.js";
import { stopGrid } from "./stop-grid.js";
import { decideWorktreeRemoval } from "./worktree-list.js";

export interface DownResult {
  wasRunning: boolean;
  stoppedGroups: number;
  /** The sockets of the grids that were running: tmux server names, or the pty host's `pty:` socket. */
  servers: string[];
  removed: string[];
  kept: { agent: string; worktree: string; reason: string }[];
}

export interface DownInput {
  clean: boolean;
  /** state/org.json, when it could be read: missing or half-written after an interrupted `org up`. */
  record: OrgRecord | undefined;
  /** Grids found by socket (org-<name>-<hash of the root>, state/pty.sock): the org's even without org.json. */
  grids: readonly { socket: string; session: string }[];
  /** The agents' folders under state/agents/: their recorded pids are the org's even without org.json. */
  agents: readonly string[];
  onStep?: (step: string) => void;
}

/** Stop every process of ours (by process group), every grid server of ours, and with `clean` the clean worktrees. */
export async function downOrg(world: World, root: string, input: DownInput): Promise<DownResult> {
  const paths = orgPaths(root);
  const { record } = input;
  const names = [...new Set([...(record?.agents.map((agent) => agent.name) ?? []), ...input.agents])];
  // Agent programs lead their pane's process group; their recorded pids catch panes tmux already lost.
  const pids: number[] = [];
  for (const name of names) {
    const pid = findRecordedProgram(world.processes, await readAgentStatus(world.files, paths.state, name));
    if (pid) pids.push(pid);
  }
  const grids = [...(record ? [{ socket: record.socket, session: record.session }] : []), ...input.grids];
  const result: DownResult = { wasRunning: false, stoppedGroups: 0, servers: [], removed: [], kept: [] };
  for (const grid of grids.filter((one, index) => grids.findIndex((other) => other.socket === one.socket) === index)) {
    const ours = grid.socket === record?.socket;
    const controlPaneId = ours ? record.controlPaneId : undefined;
    const stopped = await stopGrid(world, world.panes(grid.socket, grid.session), {
      ...(controlPaneId ? { controlPaneId } : {}),
      pids: result.servers.length === 0 ? pids : [],
      ...(input.onStep ? { onStep: input.onStep } : {}),
    });
    if (stopped.wasRunning) result.servers.push(grid.socket);
    result.wasRunning ||= stopped.wasRunning;
    result.stoppedGroups += stopped.stoppedGroups;
  }
  // Verify runs of a daemon killed earlier run in groups of their own, outside every pane.
  const orphans = await world.processes.endOrphans(paths.children);
  await removeDaemonFile(world.files, paths);
  if (input.clean && record) await removeCleanWorktrees(world, paths.state, record, result, input.onStep);
  if (!record && !result.wasRunning && orphans.length === 0) return result;
  const kept = result.kept.map((entry) => `${entry.agent} (${entry.reason})`).join("; ");
  const count = record?.agents.length ?? names.length;
  const removed = input.clean && record ? `, removed ${result.removed.length} worktrees` : "";
  const body = [
    record ? "" : "state/org.json was missing or unreadable: found by the org's socket and state/agents/",
    kept ? `kept worktrees: ${kept}` : "",
    ...orphans.map((line) => `ended, left by a killed daemon: ${line}`),
  ].filter(Boolean).join("\n");
  const title = `stopped ${count} agents${removed}`;
  const entry = formatLogEntry({ date: world.now(), op: "down", title, body: body || undefined });
  await world.files.appendLines(paths.log, [entry]);
  return result;
}


async function removeCleanWorktrees(
  world: World,
  state: string,
  record: OrgRecord,
  result: DownResult,
  onStep?: (step: string) => void,
): Promise<void> {
  onStep?.("removing clean worktrees");
  const listed = new Map((await world.git.worktreeList(record.repo)).map((entry) => [entry.path, entry]));
  for (const agent of record.agents) {
    const entry = listed.get(agent.worktree);
    if (!entry) continue;
    const where = { repo: record.repo, state, worktree: agent.worktree, agent: agent.name };
    const dirty = await world.git.dirtyFiles(where).catch((error: Error) => error);
    const decision = dirty instanceof Error
      ? { kind: "keep" as const, reason: dirty.message }
      : decideWorktreeRemoval({ dirty, branch: entry.branch, expectedBranch: agent.branch, ignored: [] });
    if (decision.kind === "keep") {
      result.kept.push({ agent: agent.name, worktree: agent.worktree, reason: decision.reason });
      continue;
    }
    await world.git.removeWorktree(record.repo, agent.worktree);
    result.removed.push(agent.name);
  }
  await world.git.pruneWorktrees(record.repo);
}
