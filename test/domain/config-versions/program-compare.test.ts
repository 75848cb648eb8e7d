import { describe, expect, test } from "vitest";
import type { ResultRow } from "../../../src/domain/experiments/results-table.js";
import { seededRng } from "../../../src/roles/index.js";
import { compareSamples, type ProgramSample } from "../../../src/domain/config-versions/compare-versions.js";
import { compareVersions, pickVersions } from "../../../src/domain/config-versions/compare-pick.js";
import { buildProgramHistory } from "../../../src/domain/config-versions/version-history.js";
import { renderComparison } from "../../../src/ui/compare-table.js";

/** n experiments of 30 GPU-minutes each, a keep with probability `keep` moving the best down by about 0.01 (seeded). */
function makeRows(program: string, n: number, keep: number, seed: number, start = 1): ResultRow[] {
  const random = seededRng(seed);
  let best = start;
  return Array.from({ length: n }, (_, index): ResultRow => {
    const roll = random();
    const status = roll < keep ? "keep" : roll < keep + 0.05 ? "crash" : "discard";
    if (status === "keep") best -= 0.02 * random();
    return {
      commit: `c${index}`, metric: status === "crash" ? undefined : status === "keep" ? best : best + 0.01,
      memoryGb: undefined, status, description: "idea", agent: "r-1", gpu: 0, seconds: 1800,
      time: new Date(Date.UTC(2026, 0, 7) + index * 60_000).toISOString(), program,
    };
  });
}
const sample = (program: string, rows: ResultRow[]): ProgramSample =>
  ({ program, experiments: rows, startBest: 1, costUsd: 10 });
const compare = (a: ProgramSample, b: ProgramSample) => compareSamples(a, b, "minimize", seededRng(18));
const verdicts = (comparison: ReturnType<typeof compare>) => Object.fromEntries(comparison.measures.map((line) =>
  [line.measure, line.verdict.kind === "better" ? line.verdict.program : line.verdict.kind]));

describe("org compare: the statistics", () => {
  test("a clear difference in keep rate names the better version, with intervals that exclude 0", () => {
    const comparison = compare(sample("aaaaaaaa", makeRows("aaaaaaaa", 80, 0.05, 1)), sample(
      "bbbbbbbb",
      makeRows("bbbbbbbb", 80, 0.4, 2),
    ));
    const keep = comparison.measures.find((line) => line.measure === "keepRate")!;
    expect(keep.verdict).toMatchObject({ kind: "better", program: "bbbbbbbb" });
    expect(keep.diff.interval![0]).toBeGreaterThan(0);
    expect(verdicts(comparison)).toMatchObject({
      improvementPerGpuHour: "bbbbbbbb",
      toFirstKeep: expect.stringMatching(/unclear|bbbbbbbb/),
    });
  });

  test("the same experiments on both sides never name a winner", () => {
    const rows = makeRows("x", 60, 0.2, 3);
    expect(Object.values(verdicts(compare(sample("aaaaaaaa", rows), sample("bbbbbbbb", rows))))).not.toContain(
      "aaaaaaaa",
    );
    expect(Object.values(verdicts(compare(sample("aaaaaaaa", rows), sample("bbbbbbbb", rows))))).not.toContain(
      "bbbbbbbb",
    );
  });

  test("seeded: the same rows give the same intervals", () => {
    const [a, b] = [sample("aaaaaaaa", makeRows("a", 30, 0.2, 4)), sample("bbbbbbbb", makeRows("b", 30, 0.3, 5))];
    expect(compare(a, b)).toEqual(compare(a, b));
  });

  test("fewer than 5 experiments: too few on every measure; none: no intervals, and it says so", () => {
    const few = compare(sample("aaaaaaaa", makeRows("a", 40, 0.3, 6)), sample("bbbbbbbb", makeRows("b", 4, 0.9, 7)));
    expect(new Set(Object.values(verdicts(few)))).toEqual(new Set(["too-few"]));
    expect(few.measures[0]!.verdict.reason).toBe(
      "bbbbbbbb has 4 experiments, fewer than 5: not enough data to tell them apart",
    );
    const none = compare(sample("aaaaaaaa", makeRows("a", 40, 0.3, 6)), sample("bbbbbbbb", []));
    expect(none.measures.every((line) => line.b.interval === undefined && line.diff.interval === undefined)).toBe(true);
    const text = renderComparison(none, "val_bpb");
    expect(text).toContain("bbbbbbbb has no experiments: nothing to measure, no intervals");
    expect(text).not.toMatch(/bbbbbbbb better|aaaaaaaa better/);
  });

  test("experiments to the first keep: a side with no keep is not counted as keeping at n + 1", () => {
    const noKeeps = (program: string, n: number) =>
      makeRows(program, n, 0, 9).map((row) => ({ ...row, status: "discard" as const }));
    const firstKeep = (comparison: ReturnType<typeof compare>) =>
      comparison.measures.find((line) => line.measure === "toFirstKeep")!;
    // Neither has a keep: the side with one more experiment used to be named the better.
    const neither = firstKeep(compare(sample("aaaaaaaa", noKeeps("a", 25)), sample("bbbbbbbb", noKeeps("b", 26))));
    expect(neither.verdict).toEqual({ kind: "unclear", reason: "neither has a keep yet: no first keep to compare" });
    expect([neither.a.value, neither.b.value]).toEqual([undefined, undefined]);
    // B kept at its 10th and then at every fifth; A has none in 6: too soon to say A is slower.
    const early = Array.from({ length: 60 }, (_, index) => ({
      ...noKeeps("b", 1)[0]!,
      commit: `b${index}`,
      ...(index >= 9 && (index - 9) % 5 === 0 ? { status: "keep" as const, metric: 0.99 - index / 1000 } : {}),
    }));
    const soon = firstKeep(compare(sample("aaaaaaaa", noKeeps("a", 6)), sample("bbbbbbbb", early)));
    expect(soon.verdict).toMatchObject({
      kind: "unclear",
      reason: expect.stringMatching(
        new RegExp(/^aaaaaaaa has no keep in 6 experiments; at bbbbbbbb's keep rate \([0-9.]+ % or more at 99 /.source
          + /%\) that happens by chance [0-9.]+ % of the time: not enough data to tell them apart$/.source),
      ),
    });
    expect(
      renderComparison(compare(sample("aaaaaaaa", noKeeps("a", 6)), sample("bbbbbbbb", early)), "val_bpb"),
    ).toMatch(/^expts to 1st keep\s+none yet\s+10 \[/m);
    // A has none in 200: rare even at the low end of B's keep rate.
    const late = firstKeep(compare(sample("aaaaaaaa", noKeeps("a", 200)), sample("bbbbbbbb", early)));
    expect(late.verdict).toMatchObject({
      kind: "better",
      program: "bbbbbbbb",
      reason: expect.stringMatching(
        new RegExp(/^aaaaaaaa has no keep in 200 experiments; .* that happens by chance 0\.[0-9]+ % of the /.source
          + /time: bbbbbbbb is better$/.source),
      ),
    });
    // One keep in B's 60: its keep rate could be near 0, so A's 120 without one proves nothing.
    const once = early.map((one, index) => (index > 9 ? { ...one, status: "discard" as const } : one));
    expect(firstKeep(compare(sample("aaaaaaaa", noKeeps("a", 120)), sample("bbbbbbbb", once))).verdict.kind)
      .toBe("unclear");
  });

  test("unpriced usage: the per-dollar measure says unpriced, the rest still compare", () => {
    const comparison = compare({
      ...sample("aaaaaaaa", makeRows("a", 80, 0.05, 1)),
      costUsd: null,
      unpriced: "unpriced (no price for model \"m\")",
    }, sample("bbbbbbbb", makeRows("b", 80, 0.4, 2)));
    expect(verdicts(comparison)).toMatchObject({ improvementPerUsd: "unpriced", keepRate: "bbbbbbbb" });
    expect(renderComparison(comparison, "val_bpb")).toMatch(/^best gain \/ \$\s+unpriced\s+\S+ \[/m);
  });
});

describe("org compare: which versions", () => {
  test("the last two by first use; unversioned by name; prefixes as `org program show` resolves them", () => {
    const order = ["unversioned", "aaaa1111", "aaaa2222", "bbbb3333"];
    expect(pickVersions([], order, order.slice(1))).toEqual({ kind: "picked", a: "aaaa2222", b: "bbbb3333" });
    expect(pickVersions(["unversioned", "bbbb"], order, order.slice(1))).toEqual({
      kind: "picked",
      a: "unversioned",
      b: "bbbb3333",
    });
    expect(pickVersions(["aaaa", "bbbb"], order, order.slice(1))).toEqual({
      kind: "refused",
      code: "program-ambiguous",
      reason: "aaaa matches 2 versions: aaaa1111, aaaa2222 — give more of its digits",
    });
    expect(pickVersions(["cccc", "bbbb"], order, order.slice(1))).toMatchObject({
      kind: "refused",
      code: "program-unknown",
      reason: "no program version cccc — saved versions: aaaa1111, aaaa2222, bbbb3333",
    });
    expect(pickVersions(["bbbb", "bbbb3333"], order, order.slice(1))).toEqual({
      kind: "refused",
      code: "compare-same",
      reason: "A and B are both bbbb3333 — name two different versions (`org history` lists them)",
    });
    expect(pickVersions([], ["aaaa1111"], ["aaaa1111"])).toMatchObject({
      kind: "refused",
      reason: "only one program version (aaaa1111) has run — change org.yaml or a prompt and let the new "
        + "version run, then `org compare`",
    });
  });

  test("from history and rows: the org best before a version is where its best gain starts", () => {
    const rows = [
      { ...makeRows("", 1, 0, 1)[0]!, description: "baseline", status: "keep" as const, metric: 1, program: undefined },
      ...makeRows("aaaaaaaa", 20, 0.3, 8),
      ...makeRows("bbbbbbbb", 20, 0.3, 9, 0.9),
    ];
    const history = buildProgramHistory({
      events: [], saved: new Map(), rows, usage: new Map(), pricing: {}, goal: "minimize",
    });
    const result = compareVersions({ ids: [], history, rows, saved: [], goal: "minimize", random: seededRng(18) });
    expect(result.kind).toBe("compared");
    if (result.kind !== "compared") return;
    expect([
      result.comparison.a.program, result.comparison.b.program, result.comparison.a.experiments,
      result.comparison.a.gpuHours,
    ]).toEqual(["aaaaaaaa", "bbbbbbbb", 20, 10]);
    expect(result.comparison.measures.find((line) => line.measure === "improvementPerUsd")!.verdict).toMatchObject({
      kind: "unpriced",
      reason: "aaaaaaaa: no usage recorded while it ran",
    });
  });

  test("side by side (an A/B run, rows interleaved): each half's best gain starts from the baselines, "
    + "not from the other's keeps", () => {
    const row = (program: string, status: "keep" | "discard", metric: number, description = "idea"): ResultRow =>
      ({ ...makeRows(program, 1, 0, 1)[0]!, program, status, metric, description });
    // A keeps 0.5 first; B then keeps 0.8: from the shared baseline
    // 1.0 that is B's gain of 0.2, which A's 0.5 would have hidden.
    const rows = [
      row("aaaaaaaa", "keep", 1, "baseline"), row("bbbbbbbb", "keep", 1, "baseline"), row("aaaaaaaa", "keep", 0.5),
      row("bbbbbbbb", "keep", 0.8), row("aaaaaaaa", "discard", 0.6), row("bbbbbbbb", "discard", 0.9),
    ];
    const history = buildProgramHistory({
      events: [], saved: new Map(), rows, usage: new Map(), pricing: {}, goal: "minimize",
    });
    const result = compareVersions({
      ids: ["aaaaaaaa", "bbbbbbbb"], history, rows, saved: [], goal: "minimize", random: seededRng(18),
    });
    if (result.kind !== "compared") return expect.fail(result.reason);
    const gain = result.comparison.measures.find((line) => line.measure === "improvementPerGpuHour")!;
    // Two experiments of 30 minutes each: one GPU-hour per half.
    expect([gain.a.value, gain.b.value]).toEqual([0.5, expect.closeTo(0.2, 9)]);
  });
});
