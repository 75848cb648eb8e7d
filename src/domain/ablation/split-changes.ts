// The kept changes a commit is made of: each keep and each stack on its lineage's first line, from the base up.
import type { Lineage, LineageLink, LineageNode } from "../lineage/index.js";

/** One kept change: what `commit` added over `from`, the keep (or base) it built on. */
export interface KeptChange {
  commit: string;
  from: string;
  /** Whose change it is: the keep's agent, or the agent whose change a stack carried. */
  agent: string;
  kind: "keep" | "stack";
  description: string;
  /** What the commit measured when it was kept. */
  metric: number;
}

export type ChangeSplit =
  | { kind: "split"; target: LineageNode; changes: KeptChange[] }
  | { kind: "refused"; code: "base" | "not-kept" | "unknown-lineage"; reason: string };

/**
 * The target's changes, base first. The walk follows each keep's first link (the keep it built on along its first
 * parents); a keep that merged another line carries that line's changes in its own, as git's diff does.
 */
export function splitChanges(lineage: Lineage, target: string): ChangeSplit {
  const short = target.slice(0, 7);
  if (target === lineage.base) {
    return { kind: "refused", code: "base", reason: `${short} is the base: it has no kept changes to take out` };
  }
  const byCommit = new Map(lineage.nodes.map((node) => [node.commit, node]));
  const top = byCommit.get(target);
  if (!top) return { kind: "refused", code: "not-kept", reason: `${short} is not a kept commit` };
  const changes: KeptChange[] = [];
  const seen = new Set<string>();
  for (let node: LineageNode | undefined = top; node; ) {
    const link: LineageLink | undefined = node.builtOn[0];
    if (node.unknown !== undefined || !link || seen.has(node.commit)) {
      const why = node.unknown ?? `what ${node.commit.slice(0, 7)} built on is not known`;
      return { kind: "refused", code: "unknown-lineage", reason: why };
    }
    seen.add(node.commit);
    changes.push({
      commit: node.commit, from: link.commit, agent: node.author, kind: node.carries ? "stack" : "keep",
      description: node.description, metric: node.metric,
    });
    node = link.relation === "base" ? undefined : byCommit.get(link.commit);
  }
  return { kind: "split", target: top, changes: changes.reverse() };
}
