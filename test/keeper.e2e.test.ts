// The keeper: a daemon killed with -9 comes back by itself, in tmux and without it; a killed keeper comes back too;
// with both killed at once nothing comes back until `org up`, which recovers as before; `org down` leaves nothing.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { runOrg } from "./helpers/org-cli.js";
import { bin, createOrgRepo, teardownOrg } from "./helpers/org-fixture.js";
import { pollUntil } from "./helpers/poll.js";
import { killDaemonAndKeepers } from "./helpers/keepers.js";
import { isRunning } from "./helpers/processes.js";
import { findLeftovers } from "./faults/collect.js";

// The runtime declares a secret: the daemon holds it for agents it restarts, and so must every daemon after it.
const orgYaml = (name: string) => `name: ${name}
repo: .
base: main
gpus: none
runtimes:
  printer: { command: ["${bin("print-env-sleep")}"], pass_env: [ORG_KEEPER_TEST_TOKEN] }
roles:
  researcher: { prompt: prompts/researcher.md, runtime: printer, count: 1 }
`;
const SECRET = { ORG_KEEPER_TEST_TOKEN: "tok-123" };

let org: ReturnType<typeof createOrgRepo> | undefined;
afterEach(() => {
  teardownOrg(org);
  org = undefined;
});

const readJson = <T>(path: string): T | undefined => {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as T;
  } catch {
    return undefined;
  }
};

/** The daemon's pid once it has beaten, other than `not`. */
function awaitDaemon(state: string, not?: number, timeoutMs = 10_000): Promise<number> {
  return pollUntil(() => {
    const beat = readJson<{ pid: number | null; heartbeatAt?: string }>(join(state, "daemon.json"));
    return beat?.pid && beat.pid !== not && beat.heartbeatAt && isRunning(beat.pid) ? beat.pid : undefined;
  }, { timeoutMs, intervalMs: 25, what: `a daemon${not ? ` other than ${not}` : ""} beating` });
}

/** The running keeper's pid, other than `not`. */
function awaitKeeper(state: string, not?: number, timeoutMs = 10_000): Promise<number> {
  return pollUntil(() => {
    const pid = Number(existsSync(join(state, "keeper.lock")) ? readFileSync(join(state, "keeper.lock"), "utf8").trim() : "");
    return pid && pid !== not && isRunning(pid) ? pid : undefined;
  }, { timeoutMs, what: `a keeper${not ? ` other than ${not}` : ""}` });
}

/** Nothing of the org runs: a killed tmux server or pty host takes a moment to exit. */
function awaitNothingLeft(dir: string, socket: string): Promise<boolean> {
  return pollUntil(() => findLeftovers(dir, socket).length === 0, { what: "nothing of the org left", explain: () => findLeftovers(dir, socket).join("\n") });
}

function environOf(pid: number): string[] {
  return readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
}

describe.each([["tmux", []], ["pty", ["--no-tmux"]]] as const)("the daemon's keeper (%s)", { tags: ["slow"] }, (mode, flags) => {
  test("kill -9 of the daemon: a new one within 10 s with the same secrets; of the keeper: the daemon starts another", async () => {
    org = createOrgRepo(orgYaml);
    const state = join(org.dir, "state");
    expect(runOrg(["up", "--no-attach", ...flags], { cwd: org.dir, env: SECRET }).code).toBe(0);
    const daemon = await awaitDaemon(state);
    const keeper = await awaitKeeper(state);
    const agent = readJson<{ pid: number }>(join(state, "agents/researcher-1/status.json"))!.pid;
    process.kill(daemon, "SIGKILL");
    const next = await awaitDaemon(state, daemon);
    expect(environOf(next)).toContain("ORG_KEEPER_TEST_TOKEN=tok-123");
    expect(readFileSync(join(state, "log.md"), "utf8")).toMatch(/^## \[[\d-]+\] keeper \| restarted the daemon \(signal SIGKILL\), 1 time since org up\nit ran [\d.]+s \(signal SIGKILL\); agents kept running$/m);
    expect(runOrg(["status"], { cwd: org.dir }).stdout).toMatch(new RegExp(`^daemon: kept by its keeper \\(pid ${keeper}\\); daemon restarted \\(signal SIGKILL\\), 1 time, last at \\S+$`, "m"));

    process.kill(keeper, "SIGKILL");
    const again = await awaitKeeper(state, keeper);
    expect(environOf(again)).toContain("ORG_KEEPER_TEST_TOKEN=tok-123");
    const replaced = new RegExp(`^## \\[[\\d-]+\\] keeper \\| restarted the keeper\\nkeeper pid ${keeper} was gone; 1 keeper restarts since org up$`, "m");
    await pollUntil(() => replaced.test(readFileSync(join(state, "log.md"), "utf8")), { what: "the new keeper's line in log.md" });
    // The new keeper keeps the daemon as the first did.
    process.kill(next, "SIGKILL");
    await awaitDaemon(state, next);
    expect(readJson<{ pid: number; state: string }>(join(state, "agents/researcher-1/status.json"))).toMatchObject({ pid: agent, state: "running" });

    expect(runOrg(["down"], { cwd: org.dir }).code).toBe(0);
    await awaitNothingLeft(org.dir, org.socket);
    expect(["keeper.lock", "keeper.json"].filter((name) => existsSync(join(state, name)))).toEqual([]);
  }, 90_000);

  test("both killed at once: neither comes back by itself; org up restarts the daemon and a keeper", async () => {
    org = createOrgRepo(orgYaml);
    const state = join(org.dir, "state");
    expect(runOrg(["up", "--no-attach", ...flags], { cwd: org.dir, env: SECRET }).code).toBe(0);
    const daemon = await awaitDaemon(state);
    const keeper = await awaitKeeper(state);
    killDaemonAndKeepers(org.dir, daemon);
    // Three seconds, more than the keeper or the daemon takes to restart the other: no one is left to do it.
    await expect(awaitDaemon(state, daemon, 3000)).rejects.toThrow(/timed out waiting for a daemon other than/);
    const up = runOrg(["up", "--no-attach", ...flags], { cwd: org.dir, env: SECRET });
    expect(up.stdout).toContain("its daemon had exited and was restarted (agents untouched)");
    const next = await awaitDaemon(state, daemon);
    expect(environOf(next)).toContain("ORG_KEEPER_TEST_TOKEN=tok-123");
    await awaitKeeper(state, keeper);
    expect(readFileSync(join(state, "log.md"), "utf8")).toMatch(/^## \[[\d-]+\] up \| restarted the daemon$/m);
    expect(runOrg(["down"], { cwd: org.dir }).code).toBe(0);
    await awaitNothingLeft(org.dir, org.socket);
    expect(mode === "tmux" || !existsSync(join(state, "pty.sock"))).toBe(true);
  }, 90_000);
});

describe("the daemon's keeper backs off", { tags: ["slow"] }, () => {
  test("a daemon that dies again within 30 s of its restart waits 2 s, and keeper.json and log.md say why", async () => {
    org = createOrgRepo(orgYaml);
    const state = join(org.dir, "state");
    expect(runOrg(["up", "--no-attach"], { cwd: org.dir }).code).toBe(0);
    const first = await awaitDaemon(state);
    await awaitKeeper(state);
    process.kill(first, "SIGKILL");
    const second = await awaitDaemon(state, first);
    process.kill(second, "SIGKILL");
    // The second quick death: the keeper waits before the third start, and says so in keeper.json while it waits.
    const waiting = await pollUntil(() => readJson<{ waitingUntil?: string }>(join(state, "keeper.json"))?.waitingUntil, { what: "the keeper's backoff" });
    const third = await awaitDaemon(state, second);
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(waiting));
    expect(readFileSync(join(state, "log.md"), "utf8")).toMatch(/^## \[[\d-]+\] keeper \| restarted the daemon \(signal SIGKILL\), 2 times since org up\nit ran [\d.]+s \(signal SIGKILL\); 2 daemons in a row died within 30s, so the next starts in 2s; agents kept running$/m);
    expect(readJson<{ waitingUntil?: string; quickDeaths: number }>(join(state, "keeper.json"))).toMatchObject({ quickDeaths: 2 });
    expect(readJson<{ waitingUntil?: string }>(join(state, "keeper.json"))?.waitingUntil).toBeUndefined();
    expect(isRunning(third)).toBe(true);
  }, 60_000);
});
