/** A process above the caller, nearest first: its pid and when it started (epoch ms; null where /proc cannot say). */
export interface Ancestor {
  pid: number;
  startedMs: number | null;
}

/** An agent's pane root as status.json records it: the program's pid and when the org saw it start. */
export interface PaneRoot {
  agent: string;
  pid: number;
  startedAt: string | null;
}

// startedAt is written once the pane is seen running, so a process that started later reuses a dead agent's pid;
// the slack covers /proc's boot time, which is whole seconds.
const START_SLACK_MS = 2000;

/** The agent whose pane the caller runs in: the nearest ancestor that is a recorded pane root; undefined in none. */
export function findPaneOwner(ancestors: readonly Ancestor[], roots: readonly PaneRoot[]): string | undefined {
  for (const ancestor of ancestors) {
    const root = roots.find((candidate) => candidate.pid === ancestor.pid);
    if (root && isSameStart(ancestor, root)) return root.agent;
  }
  return undefined;
}

function isSameStart(ancestor: Ancestor, root: PaneRoot): boolean {
  const seen = root.startedAt === null ? Number.NaN : Date.parse(root.startedAt);
  // Without a time on either side there is nothing to compare: the pid alone decides.
  if (ancestor.startedMs === null || Number.isNaN(seen)) return true;
  return ancestor.startedMs <= seen + START_SLACK_MS;
}
