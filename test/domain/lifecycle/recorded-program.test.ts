// A stopped agent's status.json keeps its program's pid; `org down` must not signal whoever holds that pid now.
import { spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { downOrg } from "../../../src/domain/lifecycle/down-org.js";
import { findRecordedProgram } from "../../../src/domain/lifecycle/recorded-program.js";
import { writeAgentStatus } from "../../../src/domain/lifecycle/agent-status-file.js";
import type { PanesPort } from "../../../src/domain/ports.js";
import type { AgentStatus } from "../../../src/domain/state.js";
import type { World } from "../../../src/domain/world.js";
import { filesPort } from "../../../src/adapters/fs/files-port.js";
import { isAlive, killProcessGroup, readStartedAt } from "../../../src/adapters/process.js";
import { makeTempDir } from "../../helpers/temp-repo.js";

const groups: number[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const pgid of groups.splice(0)) await killProcessGroup(pgid, 500);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const status = (pid: number, startedAt: Date | null): AgentStatus => ({
  agent: "a-1", state: "stopped", pid, startedAt: startedAt?.toISOString() ?? null, restarts: 0,
  consecutiveFailures: 0, lastExit: null, reason: "org stopped: max_experiments reached", updatedAt: "",
});

test("the pid is the program's only while its process started by the recorded start (a minute's slack)", () => {
  const recorded = Date.parse("2026-12-06T10:00:00Z");
  const at = (started: number | undefined) => ({ startedAt: () => started });
  expect(findRecordedProgram(at(recorded - 500), status(42, new Date(recorded)))).toBe(42);
  expect(findRecordedProgram(at(recorded + 59_000), status(42, new Date(recorded)))).toBe(42);
  // Started after the program it records could have: the pid came round again, to someone else.
  expect(findRecordedProgram(at(recorded + 61_000), status(42, new Date(recorded)))).toBeUndefined();
  expect(findRecordedProgram(at(undefined), status(42, new Date(recorded)))).toBeUndefined();
  expect(findRecordedProgram(at(recorded), status(42, null))).toBeUndefined();
  expect(findRecordedProgram(at(recorded), undefined)).toBeUndefined();
});

/** A live process group of someone else's: a `sleep` leading its own group, as a shell's job or a server does. */
function startGroupLeader(): number {
  const child = spawn("sleep", ["60"], { detached: true, stdio: "ignore" });
  child.unref();
  groups.push(child.pid!);
  return child.pid!;
}

async function downWithStatus(pid: number, startedAt: Date): Promise<string[]> {
  const root = makeTempDir("org-recorded-");
  dirs.push(root);
  const state = join(root, "state");
  mkdirSync(join(state, "agents", "a-1"), { recursive: true });
  await writeAgentStatus(filesPort, state, "a-1", status(pid, startedAt));
  const killed: string[] = [];
  const grid = { isRunning: async () => true, listPanes: async () => [], killServer: async () => undefined };
  const world = {
    files: filesPort,
    now: () => new Date(),
    panes: () => grid as unknown as PanesPort,
    processes: {
      isAlive, startedAt: readStartedAt, endOrphans: async () => [],
      killGroup: async (pgid: number) => void killed.push(String(pgid)),
    },
  } as unknown as World;
  const grids = [{ socket: "s", session: "x" }];
  await downOrg(world, root, { clean: false, record: undefined, grids, agents: ["a-1"] });
  return killed;
}

test("org down leaves alone a group whose leader took a stopped agent's recorded pid, and ends the program itself",
  async () => {
    const pid = startGroupLeader();
    expect(isAlive(-pid)).toBe(true);
    // Recorded ten minutes before this process started: its pid was the agent's program's then.
    expect(await downWithStatus(pid, new Date(Date.now() - 600_000))).toEqual([]);
    expect(isAlive(-pid)).toBe(true);
    // Recorded as it started: it is the program, and org down ends its group.
    expect(await downWithStatus(pid, new Date())).toEqual([String(pid)]);
  });

test("a live process's start is read from /proc, near the moment it was spawned", () => {
  const before = Date.now();
  const pid = startGroupLeader();
  const started = readStartedAt(pid)!;
  // /proc/uptime has 10 ms steps and the start 10 ms ticks: a little either way.
  expect(started).toBeGreaterThan(before - 1000);
  expect(started).toBeLessThan(Date.now() + 1000);
  expect(readStartedAt(2 ** 22 + 1)).toBeUndefined();
});
