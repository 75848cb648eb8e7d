// ORG_TRACE_TIMINGS: phases written as JSON lines to the file it names, nothing at all when it is unset.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { recordPhase, tracePhase, tracePort, TRACE_VAR } from "../../src/adapters/trace.js";
import { makeTempDir, removeDir } from "../helpers/temp-repo.js";

let dir: string | undefined;
afterEach(() => {
  delete process.env[TRACE_VAR];
  if (dir) removeDir(dir);
  dir = undefined;
});

const port = { calls: 0, async work(value: number) { this.calls++; return value * 2; }, name: "port" };

describe("phase timings", () => {
  test("off: the port is itself, and nothing is written", async () => {
    dir = makeTempDir("org-trace-");
    expect(tracePort(port, "p")).toBe(port);
    expect(await tracePhase("up", "grid", async () => 7)).toBe(7);
    recordPhase("up", "grid", 3);
    expect(existsSync(join(dir, "trace.jsonl"))).toBe(false);
  });

  test("on: every port call and phase is a line with its scope, " +
    "name and milliseconds; results pass through", async () => {
    dir = makeTempDir("org-trace-");
    const file = join(dir, "trace.jsonl");
    process.env[TRACE_VAR] = file;
    const traced = tracePort(port, "verifier.port");
    expect(await traced.work(21)).toBe(42);
    expect(traced.name).toBe("port");
    await expect(tracePhase("up", "grid", () => Promise.reject(new Error("no tmux")))).rejects.toThrow("no tmux");
    recordPhase("verifier", "waited", 12.5, "candidate a-1 abc1234");
    const lines = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map(({ scope, phase }) => `${String(scope)} ${String(phase)}`)).toEqual([
      "verifier.port work",
      "up grid",
      "verifier waited",
    ]);
    expect(lines.every((line) => typeof line.ms === "number" && line.pid === process.pid)).toBe(true);
    expect(lines[2]).toMatchObject({ ms: 12.5, detail: "candidate a-1 abc1234" });
  });
});
