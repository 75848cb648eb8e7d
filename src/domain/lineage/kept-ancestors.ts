// The nearest kept commits below a commit: the walk down its parents stops at each keep (or the base) it meets.

/** Each commit's parents, first parent first, for the commits the verifier's store holds above the base. */
export type CommitGraph = ReadonlyMap<string, readonly string[]>;

export type KeptAncestors = { kind: "found"; commits: string[] } | { kind: "unknown"; reason: string };

/**
 * Breadth first from the commit's parents, first parents first, so the nearest keep on the first-parent line leads.
 * A commit the graph lacks is below the base or was never taken into the store: the walk does not go through it.
 */
export function findKeptAncestors(commit: string, graph: CommitGraph, isKept: (commit: string) => boolean)
  : KeptAncestors {
  const parents = graph.get(commit);
  if (!parents) return { kind: "unknown", reason: `${commit.slice(0, 7)} is not in the verifier's store` };
  const found: string[] = [];
  const seen = new Set<string>([commit]);
  let frontier = [...parents];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const current of frontier) {
      if (seen.has(current)) continue;
      seen.add(current);
      if (isKept(current)) found.push(current);
      else next.push(...(graph.get(current) ?? []));
    }
    frontier = next;
  }
  // Keeps met on one line may lie below one met on another: only the nearest count.
  const below = (candidate: string) => found.some((other) => other !== candidate && reaches(other, candidate, graph));
  const nearest = found.filter((candidate) => !below(candidate));
  if (nearest.length > 0) return { kind: "found", commits: nearest };
  return { kind: "unknown", reason: `no keep and no base below ${commit.slice(0, 7)} in the verifier's store` };
}

/** Whether `to` lies below `from` in the graph. */
function reaches(from: string, to: string, graph: CommitGraph): boolean {
  const seen = new Set<string>();
  const stack = [...(graph.get(from) ?? [])];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (current === to) return true;
    if (seen.has(current)) continue;
    seen.add(current);
    stack.push(...(graph.get(current) ?? []));
  }
  return false;
}
