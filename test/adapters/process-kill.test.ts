import { spawn } from "node:child_process";
import { expect, test } from "vitest";
import { killProcessGroup, processRunner, signalProcess } from "../../src/adapters/process.js";
import { pollUntil } from "../helpers/poll.js";
import { isRunning } from "../helpers/processes.js";

function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

test("a child that does not lead a group yet (forked, not yet setsid) is still stopped: signalled by pid", async () => {
  // Not detached: the child shares our group, as a pty child does in the moment before its setsid.
  const child = spawn("sleep", ["60"], { stdio: "ignore" });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
  expect(isRunning(child.pid!)).toBe(true);
  await killProcessGroup(child.pid!, 5000);
  expect(await exited).toBe("SIGTERM");
  expect(isRunning(child.pid!)).toBe(false);
});

test("a group leader and its children go together; a group already gone is left alone", async () => {
  const leader = spawn("sh", ["-c", "sleep 60 & sleep 60 & wait"], { stdio: "ignore", detached: true });
  const exited = new Promise((resolve) => leader.on("exit", resolve));
  await killProcessGroup(leader.pid!, 5000);
  await exited;
  // Every process of the group has ended; the exited ones vanish once reaped (here by init, a moment later).
  await pollUntil(() => !groupExists(leader.pid!), { timeoutMs: 10_000, what: "the group reaped" });
  await killProcessGroup(leader.pid!, 5000);
});

test("a program that cannot start is a result with spawnError, " +
  "never a throw: a missing program, a cwd that is a file", async () => {
  expect(await processRunner.run(["/nonexistent/program"])).toMatchObject({
    exitCode: null,
    spawnError: expect.stringMatching(/ENOENT/),
  });
  expect(await processRunner.run(["true"], { cwd: "/etc/hostname" })).toMatchObject({
    exitCode: null,
    stdout: "",
    spawnError: "spawn ENOTDIR",
  });
});

test("one process signalled is a result: sent while it runs, ESRCH once it has exited", async () => {
  const child = spawn("sleep", ["60"], { stdio: "ignore" });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
  expect(signalProcess(child.pid!, "SIGTERM")).toEqual({ sent: true });
  expect(await exited).toBe("SIGTERM");
  expect(signalProcess(child.pid!, "SIGTERM")).toEqual({ sent: false, code: "ESRCH" });
});
