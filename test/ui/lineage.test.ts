// The lineage of kept commits as pure functions: a hand-made commit graph in, the tree and the share out.
import { describe, expect, test } from "vitest";
import { buildLineage, findKeptAncestors, type CommitGraph, type KeptRow } from "../../src/domain/lineage/index.js";
import { renderLineage } from "../../src/ui/lineage-tree.js";
import { measureWidth } from "../../src/ui/text-width.js";

const c = (name: string) => name.padEnd(40, "0");
const BASE = c("ba5e");
const keep = (commit: string, agent: string, metric: number, description = `change ${commit}`): KeptRow => ({
  commit: c(commit), agent, metric, description, time: "2026-01-01T00:00:00Z",
});

// base ← a1 (r-1) ← a2 (r-1); base ← b1 (r-2) ← ee (merge of a1, not kept) ← b2 (r-2); a2 ← 5c (org: b2 stacked on a2).
const GRAPH: CommitGraph = new Map([
  [c("a1"), [BASE]], [c("a2"), [c("a1")]], [c("b1"), [BASE]], [c("ee"), [c("b1"), c("a1")]], [c("b2"), [c("ee")]],
  [c("5c"), [c("a2")]],
]);
const KEEPS = [
  keep("ba5e", "r-1", 3, "baseline"), keep("a1", "r-1", 2.5), keep("b1", "r-2", 2.8), keep("a2", "r-1", 2.2),
  keep("b2", "r-2", 2.4), keep("a2", "r-2", 2.2, `adopt ${c("a2").slice(0, 7)} kept by r-1: change a2`),
  keep("5c", "org", 2.0, `stack ${c("b2").slice(0, 7)} onto ${c("a2").slice(0, 7)}`),
];
const STACKS = [{ kept: c("b2"), onto: c("a2"), outcome: "keep" as const, reason: "keep", commit: c("5c"), at: "t" }];

describe("findKeptAncestors", () => {
  test("stops at the nearest keeps on every line, and a keep below another keep is not one of them", () => {
    const kept = new Set([BASE, c("a1"), c("b1")]);
    const found = findKeptAncestors(c("b2"), GRAPH, (commit) => kept.has(commit));
    expect(found).toEqual({ kind: "found", commits: [c("b1"), c("a1")] });
    const onlyA = new Set([BASE, c("a1")]);
    // b1 unkept: base is reached through it, but a1 lies above the base, so a1 alone is nearest.
    expect(findKeptAncestors(c("b2"), GRAPH, (commit) => onlyA.has(commit)))
     .toEqual({ kind: "found", commits: [c("a1")] });
  });

  test("a commit the store lacks is unknown, with why", () => {
    const reason = "9900000 is not in the verifier's store";
    expect(findKeptAncestors(c("99"), GRAPH, () => false)).toEqual({ kind: "unknown", reason });
  });
});

describe("buildLineage", () => {
  const lineage = buildLineage({ base: BASE, keeps: KEEPS, stacks: STACKS, graph: GRAPH });
  const node = (commit: string) => lineage.nodes.find((found) => found.commit === c(commit))!;

  test("own chain, follow through a merge, a stack carrying another's change, an adopt marked on the original", () => {
    expect(lineage.nodes.map((found) => found.commit)).toEqual([c("a1"), c("b1"), c("a2"), c("b2"), c("5c")]);
    const link = (commit: string, author: string, relation: string) => ({ commit, author, relation });
    expect(node("a1").builtOn).toEqual([link(BASE, "base", "base")]);
    expect(node("a2").builtOn).toEqual([link(c("a1"), "r-1", "own")]);
    expect(node("b2").builtOn).toEqual([link(c("b1"), "r-2", "own"), link(c("a1"), "r-1", "follow")]);
    expect(node("5c")).toMatchObject({
      author: "r-2", carries: { commit: c("b2"), author: "r-2" }, builtOn: [link(c("a2"), "r-1", "stack")], cross: true,
    });
    expect(node("a2").adoptedBy).toEqual(["r-2"]);
    expect(lineage.share).toEqual({ keeps: 5, cross: 2, descends: 2, unknown: 0 });
  });

  test("a keep the store lacks is unknown, out of the share; a graph unread makes every keep unknown", () => {
    const keeps = [...KEEPS, keep("77", "r-1", 1.9)];
    const lacking = buildLineage({ base: BASE, keeps, stacks: STACKS, graph: GRAPH });
    expect(lacking.nodes.at(-1)).toMatchObject({ unknown: "7700000 is not in the verifier's store", builtOn: [] });
    expect(lacking.share).toEqual({ keeps: 6, cross: 2, descends: 2, unknown: 1 });
    const broken = buildLineage({ base: BASE, keeps: KEEPS, stacks: [], graph: { problem: "git rev-list failed" } });
    expect(broken.share).toEqual({ keeps: 5, cross: 0, descends: 0, unknown: 5 });
  });

  test("the tree: each keep under its first nearest keep, an only child straight below; fitted; the share last", () => {
    const text = renderLineage(lineage, "loss");
    expect(text.split("\n")).toEqual([
      "base ba5e000",
      "├─ a100000 r-1 loss 2.500000 change a1",
      "│  a200000 r-1 loss 2.200000 [adopted by r-2] change a2",
      "│  5c00000 org loss 2.000000 [stack of r-2's b200000 onto r-1's] stack b200000 onto a200000",
      "└─ b100000 r-2 loss 2.800000 change b1",
      "   b200000 r-2 loss 2.400000 [follows r-1 (a100000)] change b2",
      "2 of 5 keeps (40 %) built on another agent's result, 2 (40 %) descend from one",
    ]);
    const narrow = renderLineage(lineage, "loss", 40).split("\n");
    for (const line of narrow) expect(measureWidth(line)).toBeLessThanOrEqual(40);
    expect(narrow[3]).toBe("│  5c00000 org loss 2.000000 [stack of …");
  });
});
