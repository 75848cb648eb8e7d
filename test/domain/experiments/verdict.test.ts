import { describe, expect, test } from "vitest";
import { formatConfigDuration, judge, type JudgeInput } from "../../../src/domain/experiments/verdict.js";

const clean = { exitCode: 0, signal: null, timedOut: false };
const base: JudgeInput = {
  metric: { name: "val_loss", pattern: "^val_loss:\\s*([0-9.]+)", goal: "minimize" },
  timeoutMs: 600_000,
  best: 0.985,
  candidate: 0.9812,
  run: clean,
  paths: { ok: true },
};

describe("judge", () => {
  test("strictly lower is a keep when minimizing", () => {
    const verdict = judge(base);
    expect(verdict).toEqual({
      kind: "keep", metric: 0.9812, delta: expect.closeTo(-0.0038, 10),
      reason: "keep: val_loss 0.9812 < best 0.9850 (-0.0038)",
    });
  });
  test("higher is a discard with a positive delta", () => {
    expect(judge({ ...base, candidate: 0.986 })).toEqual({
      kind: "discard", metric: 0.986, delta: expect.closeTo(0.001, 10),
      reason: "discard: val_loss 0.9860 >= best 0.9850 (+0.0010)",
    });
  });
  test("equal is a discard: only a strict improvement is kept", () => {
    expect(judge({ ...base, candidate: 0.985 })).toEqual({
      kind: "discard", metric: 0.985, delta: 0, reason: "discard: val_loss 0.9850 >= best 0.9850 (+0.0000)",
    });
  });
  test("when maximizing, higher is kept and lower discarded", () => {
    const metric = { name: "accuracy", pattern: "^acc: (\\S+)", goal: "maximize" as const };
    expect(judge({ ...base, metric, best: 0.9, candidate: 0.91 }).reason).toBe(
      "keep: accuracy 0.9100 > best 0.9000 (+0.0100)",
    );
    expect(judge({ ...base, metric, best: 0.9, candidate: 0.89 }).reason).toBe(
      "discard: accuracy 0.8900 <= best 0.9000 (-0.0100)",
    );
  });
  test("a tiny delta gets enough decimals to be seen", () => {
    expect(judge({ ...base, best: 0.98, candidate: 0.97995 }).reason).toBe(
      "keep: val_loss 0.979950 < best 0.980000 (-0.000050)",
    );
  });
  test("the first measured run is the baseline", () => {
    expect(judge({ ...base, best: undefined })).toEqual({
      kind: "baseline",
      metric: 0.9812,
      reason: "baseline: val_loss 0.9812",
    });
  });
  test("a path violation is rejected before anything else", () => {
    const verdict = judge({
      ...base,
      paths: { ok: false, reason: "touches protected prepare.py" },
      run: { ...clean, timedOut: true },
    });
    expect(verdict).toEqual({ kind: "reject", reason: "reject: touches protected prepare.py" });
  });
  test("a timeout is a crash even if a metric was printed", () => {
    expect(judge({ ...base, run: { exitCode: null, signal: "SIGTERM", timedOut: true } })).toEqual({
      kind: "crash",
      reason: "crash: timed out after 10m; process group killed",
    });
  });
  test("no metric line is a crash naming the pattern and the exit", () => {
    expect(judge({ ...base, candidate: undefined, run: { ...clean, exitCode: 1 } })).toEqual({
      kind: "crash",
      reason: "crash: no line matched /^val_loss:\\s*([0-9.]+)/; exit code 1",
    });
    expect(
      judge({ ...base, candidate: undefined, run: { exitCode: null, signal: "SIGSEGV", timedOut: false } }).reason,
    ).toBe("crash: no line matched /^val_loss:\\s*([0-9.]+)/; killed by SIGSEGV");
  });
  test("a metric from a run that then failed is not trusted", () => {
    expect(judge({ ...base, run: { ...clean, exitCode: 1 } })).toEqual({
      kind: "crash",
      reason: "crash: exit code 1 after printing val_loss 0.9812",
    });
  });
  test("a program that could not start is a crash", () => {
    expect(
      judge({
        ...base,
        candidate: undefined,
        run: { exitCode: null, signal: null, timedOut: false, spawnError: "spawn uv ENOENT" },
      }).reason,
    ).toBe("crash: could not start: spawn uv ENOENT");
  });
});

describe("formatConfigDuration", () => {
  test("the largest whole unit", () => {
    expect([
      formatConfigDuration(600_000), formatConfigDuration(90_000), formatConfigDuration(7_200_000),
      formatConfigDuration(1500),
    ]).toEqual(["10m", "90s", "2h", "1500ms"]);
  });
});
