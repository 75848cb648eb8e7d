// One keeper per org: keeper.lock counts only while it names a running `org keeper --root <root>`.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { findRunningKeeper, keeperEnv, stopKeeper, takeKeeperLock } from "../../src/adapters/keeper-process.js";
import { makeTempDir, removeDir } from "../helpers/temp-repo.js";
import { pollUntil } from "../helpers/poll.js";
import { isRunning } from "../helpers/processes.js";

let root: string | undefined;
let child: ChildProcess | undefined;
afterEach(() => {
  if (child?.pid && isRunning(child.pid)) process.kill(-child.pid, "SIGKILL");
  if (root) removeDir(root);
  root = child = undefined;
});

function makeState(): string {
  root = makeTempDir("org-keeper-");
  const state = join(root, "state");
  mkdirSync(state);
  return state;
}

describe("keeper.lock", () => {
  test("a lock naming a live process that is no keeper (a reused pid) is taken over", async () => {
    const state = makeState();
    writeFileSync(join(state, "keeper.lock"), `${process.pid}\n`);
    expect(await findRunningKeeper(root!, state)).toBeUndefined();
    expect(await takeKeeperLock(root!, state)).toBe(true);
    expect(readFileSync(join(state, "keeper.lock"), "utf8")).toBe(`${process.pid}\n`);
  });

  test("a running keeper of this org keeps its lock; org down ends it, " +
    "removes its files and marks the stop", async () => {
    const state = makeState();
    // What counts is the command line: `… keeper --root <root>`.
    child = spawn("sh", ["-c", "sleep 60; :", "keeper", "--root", root!], { detached: true, stdio: "ignore" });
    writeFileSync(join(state, "keeper.lock"), `${child.pid}\n`);
    writeFileSync(join(state, "keeper.json"), "{}\n");
    await pollUntil(() => readFileSync(`/proc/${child!.pid}/cmdline`, "utf8").includes(root!), {
      what: "the fake keeper's start",
    });
    expect(await findRunningKeeper(root!, state)).toBe(child.pid);
    expect(await findRunningKeeper(`${root!}-other`, state)).toBeUndefined();
    expect(await takeKeeperLock(root!, state)).toBe(false);
    expect(await stopKeeper(root!, state)).toBe(true);
    expect(isRunning(child.pid!)).toBe(false);
    expect(readFileSync(join(state, "keeper.stop"), "utf8")).toMatch(/^\S+ org down\n$/);
    expect(await findRunningKeeper(root!, state)).toBeUndefined();
  });

  test("a keeper gets no secret but the daemon's, and their names to hand on", () => {
    const env = keeperEnv({ PATH: "/bin", GITHUB_TOKEN: "no", ANTHROPIC_API_KEY: "yes", TMUX: "/tmp/x,1,0" }, [
      "ANTHROPIC_API_KEY",
    ]);
    expect(env).toEqual({ PATH: "/bin", ANTHROPIC_API_KEY: "yes", ORG_DAEMON_SECRETS: "ANTHROPIC_API_KEY" });
  });
});
