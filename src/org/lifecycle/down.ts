import { formatLogEntry } from "../log-entry.js";
import { agentPaths, orgPaths } from "../paths.js";
import type { AgentStatus } from "../state.js";
import type { World } from "../world.js";
import { decideWorktreeRemoval } from "./worktrees.js";
import { readOrgRecord } from "../record-file.js";

export interface DownResult {
  wasRunning: boolean;
  stoppedGroups: number;
  removed: string[];
  kept: { agent: string; worktree: string; reason: string }[];
}

/** Stop every process of ours (by process group), the tmux server, and with `clean` the clean worktrees. */
export async function downOrg(world: World, root: string, options: { clean: boolean }): Promise<DownResult> {
  const paths = orgPaths(root);
  const record = await readOrgRecord(world.files, root, "nothing to stop (was `org up` run here?)");
  const tmux = world.tmux(record.socket, record.session);
  const wasRunning = await tmux.isRunning();
  const groups = new Set<number>();
  const panes = wasRunning ? await tmux.listPanes() : [];
  for (const pane of panes) if (!pane.dead) groups.add(pane.pid);
  // Agent programs lead their pane's process group; their recorded pids catch panes tmux already lost.
  for (const agent of record.agents) {
    const status = JSON.parse((await world.files.readText(agentPaths(paths.state, agent.name).status)) ?? "null") as AgentStatus | null;
    if (status?.pid && world.processes.isAlive(-status.pid)) groups.add(status.pid);
  }
  // The daemon goes first, so its supervisor never restarts an agent that is being stopped.
  const daemon = record.controlPaneId ? panes.find((pane) => pane.id === record.controlPaneId && !pane.dead) : undefined;
  if (daemon) {
    groups.delete(daemon.pid);
    await world.processes.killGroup(daemon.pid, 3000);
  }
  await Promise.all([...groups].map((pgid) => world.processes.killGroup(pgid, 3000)));
  // Verify runs of a daemon killed earlier run in groups of their own, outside every pane.
  const orphans = await world.processes.endOrphans(paths.children);
  await tmux.killServer();
  await world.files.removeFile(paths.daemon);
  const result: DownResult = { wasRunning, stoppedGroups: groups.size, removed: [], kept: [] };
  if (options.clean) {
    const listed = new Map((await world.git.worktreeList(record.repo)).map((entry) => [entry.path, entry]));
    for (const agent of record.agents) {
      const entry = listed.get(agent.worktree);
      if (!entry) continue;
      const dirty = await world.git.dirtyFiles({ repo: record.repo, state: paths.state, worktree: agent.worktree, agent: agent.name }).catch((error: Error) => error);
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
  const kept = result.kept.map((entry) => `${entry.agent} (${entry.reason})`).join("; ");
  await world.files.appendLines(paths.log, [formatLogEntry({
    date: world.now(), op: "down", title: `stopped ${record.agents.length} agents${options.clean ? `, removed ${result.removed.length} worktrees` : ""}`,
    body: [kept ? `kept worktrees: ${kept}` : "", ...orphans.map((line) => `ended, left by a killed daemon: ${line}`)].filter(Boolean).join("\n") || undefined,
  })]);
  return result;
}
