// The keeper: a daemon killed with -9 comes back by itself, in tmux and without it, and a killed keeper comes back too.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { keeperEnv, startKeeper } from "../../../src/adapters/keeper-process.js";
import { ORG_BIN, runOrg } from "../../helpers/org-cli.js";
import { pollUntil } from "../../helpers/poll.js";
import {
  awaitDaemon, awaitKeeper, awaitNothingLeft, environOf, killDaemonAndKeepers, orgYaml, readJson, SECRET,
  upUntilKept,
} from "../../helpers/keepers.js";
import { createTestOrg, teardownOrg, type TestOrg } from "../../helpers/test-org/index.js";

let org: TestOrg | undefined;
afterEach(() => {
  teardownOrg(org);
  org = undefined;
});

describe.each([["tmux", []], ["pty", ["--no-tmux"]]] as const)("the daemon's keeper (%s)", (mode, flags) => {
  test("kill -9 of the daemon: a new one within 10 s with the same secrets; " +
    "of the keeper: the daemon starts another; a keeper that never saw it alive still says how long it ran",
  async () => {
    org = createTestOrg({ yaml: orgYaml });
    const state = join(org.dir, "state");
    const { daemon, keeper } = await upUntilKept(org.dir, flags);
    const agent = readJson<{ pid: number }>(join(state, "agents/researcher-1/status.json"))!.pid;
    process.kill(daemon, "SIGKILL");
    const next = await awaitDaemon(state, daemon);
    expect(environOf(next)).toContain("ORG_KEEPER_TEST_TOKEN=tok-123");
    expect(readFileSync(join(state, "log.md"), "utf8")).toMatch(
      new RegExp(
        /^## \[[\d-]+\] keeper \| restarted the daemon \(signal SIGKILL\), 1 time since org up\n/.source +
        /it ran [\d.]+s \(signal SIGKILL\); agents kept running$/.source,
        "m",
      ),
    );
    expect(runOrg(["status"], { cwd: org.dir }).stdout).toMatch(
      new RegExp(
        `^daemon: kept by its keeper \\(pid ${keeper}\\); daemon restarted \\(signal SIGKILL\\), 1 time, last at \\S+$`,
        "m",
      ),
    );

    process.kill(keeper, "SIGKILL");
    const again = await awaitKeeper(state, keeper);
    expect(environOf(again)).toContain("ORG_KEEPER_TEST_TOKEN=tok-123");
    const replaced = new RegExp(
      `^## \\[[\\d-]+\\] keeper \\| restarted the keeper\\nkeeper pid ${keeper} was gone; ` +
        `1 keeper restarts since org up$`,
      "m",
    );
    await pollUntil(() => replaced.test(readFileSync(join(state, "log.md"), "utf8")), {
      what: "the new keeper's line in log.md",
    });
    // The new keeper keeps the daemon as the first did.
    process.kill(next, "SIGKILL");
    const third = await awaitDaemon(state, next);
    // Both killed, then a keeper started by hand: it never saw this daemon alive, and says how long it ran from the
    // daemon's own record, not 0 ms (the keeper's loop is the same in both modes: tmux's run covers it).
    if (mode === "tmux") {
      killDaemonAndKeepers(org.dir, third);
      await startKeeper({
        root: org.dir, state, orgArgv: [process.execPath, ORG_BIN],
        env: keeperEnv({ ...process.env, ...SECRET }, Object.keys(SECRET)),
      });
      await awaitDaemon(state, third);
      expect(readFileSync(join(state, "log.md"), "utf8")).toMatch(new RegExp(
        /^## \[[\d-]+\] keeper \| restarted the daemon \(signal SIGKILL\), 3 times since org up\n/.source +
          /it ran (?!0ms)\d+(\.\d+)?m?s \(signal SIGKILL\); 3 daemons in a row died within 30s, /.source +
          /so the next starts in 4s; agents kept running$/.source,
        "m",
      ));
    }
    expect(readJson<{ pid: number; state: string }>(join(state, "agents/researcher-1/status.json"))).toMatchObject({
      pid: agent,
      state: "running",
    });

    const down = runOrg(["down"], { cwd: org.dir });
    expect(down.code, down.stderr).toBe(0);
    await awaitNothingLeft(org.dir, org.socket);
    expect(["keeper.lock", "keeper.json"].filter((name) => existsSync(join(state, name)))).toEqual([]);
  }, 90_000);
});
