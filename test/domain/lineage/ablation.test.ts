// The ablation's decisions as pure functions: a hand-made lineage in, the changes, variants and contributions out.
import { describe, expect, test } from "vitest";
import { buildLineage, type CommitGraph, type KeptRow } from "../../../src/domain/lineage/index.js";
import {
  buildContributions, buildWaterfall, NOISE_NOTE, planVariants, splitChanges, type KeptChange, type RevertPort,
} from "../../../src/domain/ablation/index.js";

const c = (name: string) => name.padEnd(40, "0");
const BASE = c("ba5e");
const keep = (commit: string, agent: string, metric: number, description = `change ${commit}`): KeptRow => ({
  commit: c(commit), agent, metric, description, time: "2026-01-01T00:00:00Z",
});
// base ← a1 (r-1) ← b1 (r-2, follows) ← 5c (org: a2 of r-1 stacked onto b1); a2 ← a1.
const GRAPH: CommitGraph = new Map([
  [c("a1"), [BASE]], [c("b1"), [c("a1")]], [c("a2"), [c("a1")]], [c("5c"), [c("b1")]],
]);
const KEEPS = [keep("a1", "r-1", 2.5), keep("b1", "r-2", 2.2), keep("a2", "r-1", 2.4), keep("5c", "org", 2.0, "stack")];
const STACKS = [{ kept: c("a2"), onto: c("b1"), outcome: "keep" as const, reason: "keep", commit: c("5c"), at: "t" }];
const LINEAGE = buildLineage({ base: BASE, keeps: KEEPS, stacks: STACKS, graph: GRAPH });

describe("splitChanges", () => {
  test("the best's kept changes, base first: each keep and the stack, with whose change each is", () => {
    const split = splitChanges(LINEAGE, c("5c"));
    expect(split.kind).toBe("split");
    if (split.kind !== "split") return;
    expect(split.changes.map(({ commit, from, agent, kind }) => ({ commit, from, agent, kind }))).toEqual([
      { commit: c("a1"), from: BASE, agent: "r-1", kind: "keep" },
      { commit: c("b1"), from: c("a1"), agent: "r-2", kind: "keep" },
      { commit: c("5c"), from: c("b1"), agent: "r-1", kind: "stack" },
    ]);
  });

  test("the base, a commit that is not kept, and a lineage the store lacks are refused with why", () => {
    expect(splitChanges(LINEAGE, BASE)).toEqual({
      kind: "refused", code: "base", reason: "ba5e000 is the base: it has no kept changes to take out",
    });
    expect(splitChanges(LINEAGE, c("77"))).toEqual({
      kind: "refused", code: "not-kept", reason: "7700000 is not a kept commit",
    });
    const lost = buildLineage({ base: BASE, keeps: KEEPS, stacks: STACKS, graph: { problem: "no store" } });
    expect(splitChanges(lost, c("b1"))).toEqual({ kind: "refused", code: "unknown-lineage", reason: "no store" });
  });
});

const change = (commit: string, agent = "r-1"): KeptChange => ({
  commit: c(commit), from: BASE, agent, kind: "keep", description: `change ${commit}`, metric: 1,
});

// A fake of org's git: the reverts listed in `conflicts` (by their commits joined) conflict in `files`.
function fakeRevert(conflicts: Record<string, string[]>, touched: Record<string, string[]>)
  : RevertPort & { tried: string[] } {
  const tried: string[] = [];
  return {
    tried,
    revert: async (changes) => {
      const key = changes.map((one) => one.commit.slice(0, 2)).join("+");
      tried.push(key);
      const files = conflicts[key];
      return files ? { kind: "conflict", files } : { kind: "clean", commit: c(`f${key.replaceAll("+", "")}`) };
    },
    readLines: async (one) => (touched[one.commit.slice(0, 2)] ?? []).map((file) => ({ file, removed: [], added: [] })),
  };
}

describe("planVariants", () => {
  test("one variant per change; a revert that conflicts goes with the later change that touched its file", async () => {
    const port = fakeRevert({ a1: ["train.py"] }, { b1: ["README"], c1: ["train.py"] });
    const plans = await planVariants([change("a1"), change("b1"), change("c1")], port);
    expect(plans).toEqual([
      { reverted: [c("a1"), c("c1")], commit: c("fa1c1"), entangled: { with: [c("c1")], files: ["train.py"] } },
      { reverted: [c("b1")], commit: c("fb1") },
      { reverted: [c("c1")], commit: c("fc1") },
    ]);
    // b1 touched no conflicting file: it was never tried as a partner.
    expect(port.tried).toEqual(["a1", "a1+c1", "b1", "c1"]);
  });

  test("a line rewritten three times comes out with all three; a conflict nothing resolves is reported", async () => {
    const chain = fakeRevert({ a1: ["x.py"], "a1+b1": ["x.py"] }, { b1: ["x.py"], c1: ["x.py"] });
    const plans = await planVariants([change("a1"), change("b1"), change("c1")], chain);
    expect(plans[0]).toEqual({
      reverted: [c("a1"), c("b1"), c("c1")], commit: c("fa1b1c1"),
      entangled: { with: [c("b1"), c("c1")], files: ["x.py"] },
    });
    const stuck = fakeRevert({ a1: ["x.py"], "a1+b1": ["x.py"] }, { b1: ["x.py"] });
    expect((await planVariants([change("a1"), change("b1")], stuck))[0]).toEqual({
      reverted: [c("a1")],
      skipped: "its revert conflicts in x.py, and no later changes reverted with it apply: not measured",
    });
  });
});

test("the partner is the later change that rewrote the conflicting line, not the nearest in the file", async () => {
  const lines: Record<string, { removed: string[]; added: string[] }> = {
    a1: { removed: ["wd = 5"], added: ["wd = 4"] }, b1: { removed: ["lr = 1"], added: ["lr = 2"] },
    c1: { removed: ["wd = 4"], added: ["wd = 3"] },
  };
  const port: RevertPort = {
    revert: async (changes) => {
      const key = changes.map((one) => one.commit.slice(0, 2)).join("+");
      if (key === "a1") return { kind: "conflict", files: ["train.py"] };
      return { kind: "clean", commit: c(`f${key.replace("+", "")}`) };
    },
    readLines: async (one) => [{ file: "train.py", ...lines[one.commit.slice(0, 2)]! }],
  };
  const plans = await planVariants([change("a1"), change("b1"), change("c1")], port);
  expect(plans[0]).toEqual({
    reverted: [c("a1"), c("c1")], commit: c("fa1c1"), entangled: { with: [c("c1")], files: ["train.py"] },
  });
});

describe("buildContributions", () => {
  const changes = [change("a1", "r-1"), change("b1", "r-2"), change("c1", "r-3")];
  const base = {
    goal: "minimize" as const, best: { metric: 1.0, runs: 3 }, sigma: 0.01, rule: { k: 2, minDelta: 0 }, changes,
  };

  test("the change that carries the gain, the one within the noise, and one the best is better without", () => {
    const rows = buildContributions({
      ...base,
      variants: [
        { reverted: [c("a1")], commit: c("fa1"), measure: { n: 3, mean: 1.5 } },
        { reverted: [c("b1")], commit: c("fb1"), measure: { n: 3, mean: 1.004 } },
        { reverted: [c("c1")], commit: c("fc1"), measure: { n: 3, mean: 0.9 } },
      ],
    });
    expect(rows.map((row) => [row.reverted[0]!.agent, row.effect, row.note])).toEqual([
      ["r-1", "carries", "carries a gain"], ["r-2", "noise", NOISE_NOTE],
      ["r-3", "hurts", "the best measures better without it"],
    ]);
    // Minimizing: the best is 0.5 lower than without a1, a gain of 0.5; 95 % from σ over 3 and 3 runs.
    expect(rows[0]!.delta).toBeCloseTo(-0.5);
    expect(rows[0]!.gain).toBeCloseTo(0.5);
    const half = 1.96 * 0.01 * Math.sqrt(2 / 3);
    expect(rows[0]!.interval![0]).toBeCloseTo(-0.5 - half);
    expect(rows[0]!.interval![1]).toBeCloseTo(-0.5 + half);
    expect(rows[1]!.threshold).toBeCloseTo(2 * 0.01 * Math.sqrt(2 / 3));
  });

  test("maximizing flips the gain; unknown σ falls back to the variant's own spread, then to min_delta", () => {
    const rows = buildContributions({
      ...base, goal: "maximize", sigma: undefined, rule: { k: 2, minDelta: 0.05 },
      variants: [
        { reverted: [c("a1")], commit: c("fa1"), measure: { n: 3, mean: 0.5, sd: 0.1 } },
        { reverted: [c("b1")], commit: c("fb1"), measure: { n: 1, mean: 0.97 } },
      ],
    });
    expect(rows[0]).toMatchObject({ gain: 0.5, effect: "carries" });
    expect(rows[0]!.interval![1] - rows[0]!.interval![0]).toBeCloseTo(2 * 1.96 * 0.1 * Math.sqrt(2 / 3));
    expect(rows[1]).toMatchObject({ effect: "noise", threshold: 0.05 });
    expect(rows[1]!.interval).toBeUndefined();
  });

  test("the best measured again is what each Δ is against, not its lucky kept metric", () => {
    const rows = buildContributions({
      ...base, best: { metric: 0.9, runs: 1 },
      variants: [
        { reverted: [], commit: c("5c"), measure: { n: 3, mean: 1.0 } },
        { reverted: [c("b1")], commit: c("fb1"), measure: { n: 3, mean: 1.004 } },
      ],
    });
    expect(rows[0]).toMatchObject({ state: "measured", metric: 1.0, runs: 3 });
    expect(rows[0]!.delta).toBeUndefined();
    expect(rows[1]).toMatchObject({ effect: "noise", note: NOISE_NOTE });
    expect(rows[1]!.delta).toBeCloseTo(-0.004);
    const steps = buildWaterfall({ baseline: 1.2, best: 0.9, rows })!;
    expect(steps.at(-1)).toEqual({ label: "best", from: 1.0, to: 1.0, kind: "best" });
  });

  test("a variant the ledger answered says whose measure it is", () => {
    const rows = buildContributions({
      ...base, variants: [{ reverted: [c("b1")], commit: c("fb1"), measure: { n: 1, mean: 1.004, from: c("77") } }],
    });
    expect(rows[0]!.note).toBe(`${NOISE_NOTE} (the ledger's measure of 7700000, not run again)`);
  });

  test("pending, crashed, cancelled and skipped variants say so", () => {
    const rows = buildContributions({
      ...base,
      variants: [
        { reverted: [c("a1")], commit: c("fa1") },
        { reverted: [c("b1")], commit: c("fb1"), measure: { n: 1, crashed: "run 1 exited 1" } },
        { reverted: [c("c1")], commit: c("fc1"), cancelled: "the org stopped" },
        { reverted: [c("c1"), c("a1")], skipped: "conflicts" },
      ],
    });
    expect(rows.map((row) => [row.state, row.note])).toEqual([
      ["pending", "queued"], ["crashed", "run 1 exited 1"], ["cancelled", "the org stopped"], ["skipped", "conflicts"],
    ]);
  });
});

describe("buildWaterfall", () => {
  test("baseline, each change, the rest the single ablations leave, then the best", () => {
    const rows = buildContributions({
      goal: "minimize", best: { metric: 1.0, runs: 1 }, sigma: 0.01, rule: { k: 2, minDelta: 0 },
      changes: [change("a1"), change("b1", "r-2")],
      variants: [
        { reverted: [c("a1")], commit: c("fa1"), measure: { n: 1, mean: 1.4 } },
        { reverted: [c("b1")], commit: c("fb1"), measure: { n: 1, mean: 1.1 } },
      ],
    });
    const steps = buildWaterfall({ baseline: 1.6, best: 1.0, rows })!;
    expect(steps.map((step) => [step.label, step.kind, Number(step.to.toFixed(6))])).toEqual([
      ["baseline", "baseline", 1.6], ["a100000 r-1", "change", 1.2], ["b100000 r-2", "change", 1.1],
      ["interactions, noise", "rest", 1.0], ["best", "best", 1.0],
    ]);
    expect(buildWaterfall({ baseline: undefined, best: 1, rows })).toBeUndefined();
  });
});
