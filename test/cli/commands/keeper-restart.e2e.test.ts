// The keeper when it cannot help at once: with the daemon and the keeper killed together nothing comes back until
// `org up`, which recovers as before; a daemon that keeps dying at once is restarted after a backoff.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { runOrg } from "../../helpers/org-cli.js";
import { pollUntil } from "../../helpers/poll.js";
import {
  awaitDaemon, awaitKeeper, awaitNothingLeft, environOf, killDaemonAndKeepers, orgYaml, readJson, SECRET,
  upUntilKept,
} from "../../helpers/keepers.js";
import { isRunning } from "../../helpers/processes.js";
import { createTestOrg, teardownOrg, type TestOrg } from "../../helpers/test-org/index.js";

let org: TestOrg | undefined;
afterEach(() => {
  teardownOrg(org);
  org = undefined;
});

describe.each([["tmux", []], ["pty", ["--no-tmux"]]] as const)("the daemon's keeper (%s)", (mode, flags) => {
  test("both killed at once: neither comes back by itself; org up restarts the daemon and a keeper", async () => {
    org = createTestOrg({ yaml: orgYaml });
    const state = join(org.dir, "state");
    const { daemon, keeper } = await upUntilKept(org.dir, flags);
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

describe("the daemon's keeper backs off", () => {
  test("a daemon that dies again within 30 s of its restart waits 2 s, " +
    "and keeper.json and log.md say why", async () => {
    org = createTestOrg({ yaml: orgYaml });
    const state = join(org.dir, "state");
    expect(runOrg(["up", "--no-attach"], { cwd: org.dir }).code).toBe(0);
    const first = await awaitDaemon(state);
    await awaitKeeper(state);
    process.kill(first, "SIGKILL");
    const second = await awaitDaemon(state, first);
    process.kill(second, "SIGKILL");
    // The second quick death: the keeper waits before the third start, and says so in keeper.json while it waits.
    const waiting = await pollUntil(
      () => readJson<{ waitingUntil?: string }>(join(state, "keeper.json"))?.waitingUntil,
      { what: "the keeper's backoff" },
    );
    const third = await awaitDaemon(state, second);
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(waiting));
    expect(readFileSync(join(state, "log.md"), "utf8")).toMatch(
      new RegExp(
        /^## \[[\d-]+\] keeper \| restarted the daemon \(signal SIGKILL\), 2 times since org up\n/.source +
        /it ran [\d.]+s \(signal SIGKILL\); 2 daemons in a row died within 30s, so the next starts in 2s; /.source +
        /agents kept running$/.source,
        "m",
      ),
    );
    expect(readJson<{ waitingUntil?: string; quickDeaths: number }>(join(state, "keeper.json"))).toMatchObject({
      quickDeaths: 2,
    });
    expect(readJson<{ waitingUntil?: string }>(join(state, "keeper.json"))?.waitingUntil).toBeUndefined();
    expect(isRunning(third)).toBe(true);
  }, 60_000);
});
