import { describe, expect, test } from "vitest";
import type { LaunchSpec } from "../../../src/domain/state.js";
import {
  decideAfterExit, describeExit, explainSpawnError, formatDuration, parseLaunchSpec, type ExitDecision,
} from "../../../src/domain/lifecycle/supervise.js";

const spec: LaunchSpec = {
  agent: "alice", role: "researcher", argv: ["claude"], cwd: "/wt/alice", env: {},
  restart: "on-failure", backoffMs: 1000, maxBackoffMs: 8000, maxRestarts: 10, healthyAfterMs: 60_000,
};
const fresh = { restarts: 0, consecutiveFailures: 0 };
const RUNTIME: NonNullable<LaunchSpec["runtime"]> = {
  name: "gem", preset: "gemini", sessionId: "s", home: "/h", resumeArgv: null, transcripts: null, promptFile: null,
  seed: [], watch: { nudge: "", nudgeAfterMs: 600_000, nudgesPerHour: 6, answerTrust: false },
};

// A run that started `durationMs` before the decision.
function decide(
  exit: { code?: number | null; signal?: string | null; error?: string },
  durationMs: number,
  over: Partial<LaunchSpec> = {},
  history = fresh,
): ExitDecision {
  return decideAfterExit(
    { ...spec, ...over },
    history,
    { code: null, signal: null, ...exit, startedAt: 1_000_000 },
    1_000_000 + durationMs,
  );
}

describe("decideAfterExit", () => {
  test("always restarts even after a clean exit", () => {
    expect(decide({ code: 0 }, 200, { restart: "always" })).toEqual({
      kind: "restart", delayMs: 1000, reason: "exited with code 0 after 0.2s; restart 1/10 in 1s",
      history: { restarts: 1, consecutiveFailures: 1 },
    });
  });

  test("on-failure restarts after a non-zero code or a signal, and is done after code 0", () => {
    expect(decide({ code: 2 }, 200).kind).toBe("restart");
    expect(decide({ signal: "SIGKILL" }, 1500).reason).toBe("killed by SIGKILL (137) after 1.5s; restart 1/10 in 1s");
    expect(decide({ code: 0 }, 5000)).toEqual({
      kind: "done", reason: "exited with code 0 after 5s; not restarting (restart policy is on-failure)",
      history: fresh,
    });
  });

  test("never is done after code 0 and gives up after a failure", () => {
    expect(decide({ code: 0 }, 200, { restart: "never" })).toMatchObject({
      kind: "done",
      reason: "exited with code 0 after 0.2s; restart policy is never",
    });
    expect(decide({ code: 1 }, 200, { restart: "never" })).toMatchObject({
      kind: "give-up",
      reason: "exited with code 1 after 0.2s; restart policy is never",
    });
  });

  test("backoff doubles per consecutive failure and stops at the cap", () => {
    const delays = [0, 1, 2, 3, 4, 9].map((consecutiveFailures) =>
      decide({ code: 1 }, 200, {}, { restarts: 20, consecutiveFailures }));
    expect(delays.map((decision) => (decision.kind === "restart" ? decision.delayMs : -1))).toEqual([
      1000, 2000, 4000, 8000, 8000, 8000,
    ]);
    expect(delays[5]!.history).toEqual({ restarts: 21, consecutiveFailures: 10 });
  });

  test("reason counts the restart against the limit", () => {
    expect(decide({ code: 1 }, 200, {}, { restarts: 2, consecutiveFailures: 2 }).reason).toBe(
      "exited with code 1 after 0.2s; restart 3/10 in 4s",
    );
  });

  test("gives up after maxRestarts consecutive restarts without a healthy run", () => {
    expect(decide({ code: 1 }, 200, {}, { restarts: 10, consecutiveFailures: 10 })).toEqual({
      kind: "give-up",
      reason: "exited with code 1 after 0.2s; gave up after 10 restarts without a run lasting 1m",
      history: { restarts: 10, consecutiveFailures: 10 },
    });
    expect(decide({ code: 1 }, 200, { maxRestarts: 0 }).kind).toBe("give-up");
  });

  test("a run lasting healthyAfterMs resets the consecutive count", () => {
    expect(decide({ code: 1 }, 60_000, {}, { restarts: 10, consecutiveFailures: 10 })).toEqual({
      kind: "restart", delayMs: 1000, reason: "exited with code 1 after 1m; restart 1/10 in 1s",
      history: { restarts: 11, consecutiveFailures: 1 },
    });
    expect(decide({ code: 1 }, 59_999, {}, { restarts: 10, consecutiveFailures: 10 }).kind).toBe("give-up");
  });

  test("a CLI's own relaunch code restarts it at once, whatever the policy, and counts toward the crash loop", () => {
    const relaunching = { runtime: { ...RUNTIME, relaunchCode: 199 } };
    for (const restart of ["on-failure", "never", "always"] as const) {
      expect(decide({ code: 199 }, 3000, { ...relaunching, restart })).toEqual({
        kind: "restart", delayMs: 0,
        reason: "exited with code 199 after 3s: it asks to be started again; restarting it",
        history: { restarts: 1, consecutiveFailures: 1 },
      });
    }
    // One that asks at every start is a crash loop: given up on as any other, and said so under each policy.
    for (const restart of ["on-failure", "never"] as const) {
      expect(decide({ code: 199 }, 200, { ...relaunching, restart }, { restarts: 10, consecutiveFailures: 10 }))
        .toMatchObject({
          kind: "give-up",
          reason: "exited with code 199 after 0.2s; gave up after 10 restarts without a run lasting 1m",
        });
    }
    // The code means nothing from a CLI whose preset names none, nor another code from this one.
    expect(decide({ code: 199 }, 200).reason).toBe("exited with code 199 after 0.2s; restart 1/10 in 1s");
    expect(decide({ code: 198 }, 200, relaunching).reason).toBe("exited with code 198 after 0.2s; restart 1/10 in 1s");
  });

  test("a program that never started is described by its error", () => {
    const decision = decide({ code: 127, error: 'program "foo" not found on PATH' }, 3, { restart: "never" });
    expect(decision).toMatchObject({
      kind: "give-up",
      reason: 'program "foo" not found on PATH; restart policy is never',
    });
  });
});

describe("describeExit", () => {
  test("translates the exit codes agents die with", () => {
    expect(describeExit(1, null)).toBe("exited with code 1");
    expect(describeExit(126, null)).toBe("exit 126: not executable");
    expect(describeExit(127, null)).toBe("exit 127: command not found");
    expect(describeExit(130, null)).toBe("exit 130: interrupted by SIGINT");
    expect(describeExit(137, null)).toBe("exit 137: killed by SIGKILL, maybe out of memory");
    expect(describeExit(143, null)).toBe("exit 143: terminated by SIGTERM");
  });

  test("names signals with the code a shell would show", () => {
    expect(describeExit(null, "SIGKILL")).toBe("killed by SIGKILL (137)");
    expect(describeExit(null, "SIGTERM")).toBe("killed by SIGTERM (143)");
    expect(describeExit(null, "SIGBOGUS")).toBe("killed by SIGBOGUS");
    expect(describeExit(null, null)).toBe("exited");
  });
});

test("formatDuration is short at every scale", () => {
  expect([50, 200, 4000, 12_345, 120_000, 125_000, 3_780_000].map(formatDuration)).toEqual([
    "50ms", "0.2s", "4s", "12.3s", "2m", "2m 5s", "1h 3m",
  ]);
});

test("explainSpawnError blames the cwd, PATH or permissions", () => {
  const launch = { argv: ["foo"], cwd: "/wt" };
  expect(explainSpawnError({ code: "ENOENT", message: "" }, launch, false)).toEqual({
    code: 127,
    error: 'working directory "/wt" does not exist',
  });
  expect(explainSpawnError({ code: "ENOENT", message: "" }, launch, true)).toEqual({
    code: 127,
    error: 'program "foo" not found on PATH',
  });
  expect(explainSpawnError({ code: "ENOENT", message: "" }, { argv: ["./foo"], cwd: "/wt" }, true).error)
    .toBe('program "./foo" not found');
  expect(explainSpawnError({ code: "EACCES", message: "" }, launch, true)).toEqual({
    code: 126,
    error: 'program "foo" is not executable',
  });
});

test("parseLaunchSpec accepts a full spec and names the first bad field", () => {
  expect(parseLaunchSpec(spec)).toEqual(spec);
  expect(parseLaunchSpec({ ...spec, argv: [] })).toMatch(/^argv: /);
  expect(parseLaunchSpec({ ...spec, restart: "sometimes" })).toMatch(/^restart: /);
  expect(parseLaunchSpec(null)).toMatch(/^\(root\): /);
});
