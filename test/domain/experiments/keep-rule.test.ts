import { describe, expect, test } from "vitest";
import { buildConfirmReport, formatConfirmReport } from "../../../src/domain/experiments/confirm-report.js";
import { decideFrontier } from "../../../src/domain/experiments/frontier.js";
import { decideKeep } from "../../../src/domain/experiments/keep-rule.js";
import { pooledSigma, summarize } from "../../../src/domain/experiments/noise.js";

const rule = { k: 2, minDelta: 0, confirm: 2 };

describe("noise", () => {
  test("mean and sample sd", () => {
    expect(summarize([1, 2, 3])).toEqual({ mean: 2, sd: 1, n: 3 });
    expect(summarize([5])).toEqual({ mean: 5, sd: 0, n: 1 });
    // A deterministic run: exactly 0, though the mean of three 0.7s rounds away from 0.7.
    expect(summarize([0.7, 0.7, 0.7]).sd).toBe(0);
    expect(pooledSigma([[0.7, 0.7, 0.7], [0.1, 0.1, 0.1]])).toBe(0);
  });
  test("σ pools the baselines of every agent; single runs add nothing", () => {
    expect(pooledSigma([[1, 2, 3], [10, 12], [7]])).toBeCloseTo(Math.sqrt((2 * 1 + 1 * 2) / 3), 12);
    expect(pooledSigma([[1], []])).toBeUndefined();
  });
});

describe("decideKeep", () => {
  const decide = (samples: number[], sigma: number | undefined, overrides = {}, bestRuns = 3) =>
    decideKeep({
      goal: "minimize", metric: "val_loss", best: 1.0, bestRuns, samples, sigma, rule: { ...rule, ...overrides },
    });

  test("a first run that beats the best is re-run with fresh seeds before it can be kept", () => {
    expect(decide([0.97], 0.01)).toEqual({
      kind: "confirm", mean: 0.97, runs: 2,
      reason: "confirm: -0.0300 beats the best; 2 more run(s) with fresh seeds before it can be kept",
    });
  });
  test("the mean of n runs must beat the best of m runs by k·σ·√(1/n+1/m)", () => {
    expect(decide([0.98, 0.975, 0.97], 0.01)).toEqual({
      kind: "keep", mean: 0.975, delta: expect.closeTo(-0.025, 12),
      reason: "keep: val_loss 0.9750 (mean of 3) beats best 1.0000 by 0.0250 > 2σ·√(1/3+1/3) (0.0163)",
    });
  });
  test("a mean inside the noise is discarded, saying by how much it fell short", () => {
    expect(decide([0.995, 0.995, 0.994], 0.01)).toMatchObject({
      kind: "discard",
      reason: "discard: val_loss 0.9947 (mean of 3) -0.0053 < 2σ·√(1/3+1/3) (0.0163)",
    });
    expect(decide([0.995, 1.0, 1.005], 0.01)).toMatchObject({
      kind: "discard",
      reason: "discard: val_loss 1.0000 (mean of 3) not better than best 1.0000 (+0.0000)",
    });
  });
  test("worse is discarded at once, without confirmation", () => {
    expect(decide([1.02], 0.01)).toMatchObject({
      kind: "discard",
      reason: "discard: val_loss 1.0200 not better than best 1.0000 (+0.0200)",
    });
  });
  test("σ of zero (deterministic): min_delta is the rule, and the reason says so", () => {
    expect(decide([0.999], 0, { minDelta: 0.01, confirm: 0 })).toMatchObject({
      kind: "discard",
      reason: "discard: val_loss 0.9990 -0.0010 < min_delta 0.0100 (σ is 0: a deterministic task)",
    });
    expect(decide([0.98], 0, { minDelta: 0.01, confirm: 0 })).toMatchObject({
      kind: "keep",
      reason: "keep: val_loss 0.9800 beats best 1.0000 by 0.0200 > min_delta 0.0100 (σ is 0: a deterministic task)",
    });
  });
  test("min_delta wins when it is larger than the noise bar", () => {
    expect(decide([0.97], 0.001, { minDelta: 0.05, confirm: 0 })).toMatchObject({
      kind: "discard",
      reason: "discard: val_loss 0.9700 -0.0300 < min_delta 0.0500 (2σ·√(1/1+1/3) is 0.0023)",
    });
  });
  test("confirm: 0 judges the single run", () => {
    expect(decide([0.97], 0.01, { confirm: 0 })).toMatchObject({
      kind: "keep",
      reason: "keep: val_loss 0.9700 beats best 1.0000 by 0.0300 > 2σ·√(1/1+1/3) (0.0231)",
    });
  });
  test("maximize flips the direction", () => {
    expect(
      decideKeep({
        goal: "maximize", metric: "acc", best: 0.5, samples: [0.6], sigma: 0.01, rule: { ...rule, confirm: 0 },
      }).kind,
    ).toBe("keep");
    expect(decideKeep({ goal: "maximize", metric: "acc", best: 0.5, samples: [0.4], sigma: 0.01, rule }).kind)
      .toBe("discard");
  });
});

describe("frontier and confirmation", () => {
  test("the frontier advances only past the org's best", () => {
    const current = { commit: "a", metric: 0.9, agent: "r-1", at: "t" };
    expect(decideFrontier(current, { commit: "b", metric: 0.85, agent: "r-2" }, "minimize", "val_loss")).toEqual({
      kind: "advance",
      reason: "val_loss 0.85 by r-2 beats the org's best 0.9 (r-1)",
    });
    expect(decideFrontier(current, { commit: "b", metric: 0.95, agent: "r-2" }, "minimize", "val_loss").kind)
      .toBe("hold");
    expect(decideFrontier(undefined, { commit: "b", metric: 0.95, agent: "r-2" }, "minimize", "val_loss").kind)
      .toBe("advance");
  });
  test("org confirm reports mean ± sd next to the baseline, and the gap in σ", () => {
    const report = buildConfirmReport({
      commit: "abcdef123", agent: "r-1", metric: "val_loss", goal: "minimize", runs: [0.9, 0.92, 0.91],
      baseline: [1.0, 1.02, 0.98], sigma: 0.02,
    });
    expect(formatConfirmReport(report)).toEqual([
      "abcdef1 (r-1): val_loss 0.910000 ± 0.010000 over 3 runs",
      "baseline 1.000000 ± 0.020000 (n=3) · +4.5σ vs baseline (σ 0.020000)",
    ]);
  });
});
