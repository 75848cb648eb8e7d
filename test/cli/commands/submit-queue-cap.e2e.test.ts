// verify.queue_per_agent holds across daemon restarts: `org submit` counts the agent's requests on disk.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { ExperimentRequest } from "../../../src/domain/experiments/request.js";
import { decideQueueRoom } from "../../../src/domain/experiments/schedule.js";
import { runOrgAsync } from "../../helpers/org-cli.js";
import { git, removeDir } from "../../helpers/temp-repo.js";
import { createTestOrg } from "../../helpers/test-org/index.js";

const request = (agent: string, commit: string, kind: ExperimentRequest["kind"] = "candidate"): ExperimentRequest => ({
  id: `2026-12-02T00-00-00-000Z-${agent}-${commit}`,
  agent,
  commit,
  description: `idea ${commit}`,
  kind,
  submittedAt: "2026-12-02T00:00:00.000Z",
});

describe("decideQueueRoom", () => {
  test("counts only the agent's own candidates: baselines and confirmations are the verifier's", () => {
    const queued = [
      request("r-1", "aaaaaaa"),
      request("r-1", "base", "baseline"),
      request("r-1", "ccccccc", "confirm"),
      request("r-10", "ddddddd"),
    ];
    expect(decideQueueRoom(queued, "r-1", 2)).toEqual({ kind: "room", queued: 1 });
  });

  test("at the cap: refused, naming what waits and the setting", () => {
    expect(decideQueueRoom([request("r-1", "aaaaaaa"), request("r-1", "bbbbbbb")], "r-1", 2)).toEqual({
      kind: "full",
      reason:
        'you already have 2 experiments queued (aaaaaaa "idea aaaaaaa", bbbbbbb "idea bbbbbbb") ' +
          'and verify.queue_per_agent is 2: wait for a verdict, then submit (nothing was committed)',
    });
  });
});

let dir: string | undefined;
afterEach(() => {
  if (dir) removeDir(dir);
  dir = undefined;
});

describe("org submit at the queue cap", () => {
  test("two requests left queued by earlier daemons: " +
    "the third submit is refused and the worktree stays as it was", async () => {
    const queued = [request("researcher-1", "aaaaaaa"), request("researcher-1", "bbbbbbb")];
    const { base, worktree, ...org } = createTestOrg({ daemon: false, judged: true, state: {
      // A daemon just started: it accepted nothing yet, but the queue on disk is full.
      "state/daemon.json": JSON.stringify({
        pid: process.pid,
        heartbeatAt: new Date().toISOString(),
        queuePerAgent: 2,
      }),
      ...Object.fromEntries(queued.map((item) => [`state/queue/${item.id}.json`, JSON.stringify(item)])),
    } });
    dir = org.dir;
    writeFileSync(join(worktree, "value.txt"), "2\n");
    const result = await runOrgAsync(["submit", "-m", "double it"], { cwd: worktree, timeoutMs: 30_000 });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      'org: you already have 2 experiments queued (aaaaaaa "idea aaaaaaa", bbbbbbb "idea bbbbbbb") ' +
        'and verify.queue_per_agent is 2: wait for a verdict, then submit (nothing was committed)',
    );
    expect(git(worktree, ["rev-parse", "HEAD"]).trim()).toBe(base);
    expect(git(worktree, ["status", "--porcelain"])).toBe(" M value.txt\n");
    expect(readFileSync(join(worktree, "value.txt"), "utf8")).toBe("2\n");
    expect(readdirSync(join(dir, "state/queue")).sort()).toEqual(queued.map((item) => `${item.id}.json`).sort());
  });
});
