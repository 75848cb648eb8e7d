// The verifier follows the agents' commits however they come: a plain `git commit` with no submit, a commit made while
// the one below it runs, two agents at once on one slot; then `org results` and `org down` on what they left.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import type { AgentStatus } from "../../../src/domain/state.js";
import { isRunning } from "../../helpers/processes.js";
import { runOrg } from "../../helpers/org-cli.js";
import { pollUntil } from "../../helpers/poll.js";
import { git } from "../../helpers/temp-repo.js";
import { readJsonFile, tmux } from "../../helpers/test-org/index.js";
import {
  base, baselineRows, branchHead, expectResetTo, inboxText, lastInbox, ledger, org, PATCH, patchFile, readRows,
  scratch, state, submitAsync, TRAIN, upVerifierOrg, worktree,
} from "../../helpers/verifier-org.js";

upVerifierOrg();

// What the file has verified so far, checked whole against results.tsv after each verdict.
const rows: string[][] = [];
const kept: Record<string, string> = {};

describe("the verifier follows the agents' commits", () => {
  beforeAll(() => {
    rows.push(...baselineRows());
    kept["researcher-1"] = base;
    kept["researcher-2"] = base;
  });

  test("a plain `git commit` on the agent branch is verified without submit", async () => {
    const dir = worktree("researcher-2");
    writeFileSync(join(dir, "value.txt"), "0.800\n");
    git(dir, ["commit", "-qam", "lower the value by hand"]);
    const commit = git(dir, ["rev-parse", "HEAD"]).trim();
    await pollUntil(() => ledger("researcher-2").lastVerified === commit, {
      what: "the plain commit to be verified",
      timeoutMs: 15_000,
    });
    expect(ledger("researcher-2")).toMatchObject({ best: { commit, metric: 0.8 }, lastVerified: commit });
    expect(branchHead("researcher-2")).toBe(commit);
    const short = commit.slice(0, 7);
    rows.push([short, "0.800000", "1.5", "keep", "lower the value by hand", "researcher-2", "cpu"]);
    expect(readRows()).toEqual(rows);
    expect(lastInbox("researcher-2")).toBe(
      `## [T] verdict keep for ${short}\nkeep: val_bpb 0.8000 beats best 1.0000 by 0.2000 > min_delta 0.0000 (σ ` +
        `unknown: no repeated baseline yet)\n`,
    );
    kept["researcher-2"] = commit;
  });

  test("a commit made while the one below it runs survives that one's discard and gets its own verdict", async () => {
    const dir = worktree("researcher-2");
    const best = kept["researcher-2"]!;
    writeFileSync(join(dir, "train.sh"), TRAIN.replace("\n", "\nsleep 1\n"));
    writeFileSync(join(dir, "value.txt"), "0.950\n");
    git(dir, ["commit", "-qam", "slow and worse"]);
    const slow = git(dir, ["rev-parse", "HEAD"]).trim().slice(0, 7);
    await pollUntil(() => readdirSync(join(state, "runs")).some((file) => file.endsWith(`-researcher-2-${slow}.log`)), {
      what: "the slow run to start",
      timeoutMs: 15_000,
    });
    writeFileSync(join(dir, "train.sh"), TRAIN);
    writeFileSync(join(dir, "value.txt"), "0.700\n");
    git(dir, ["commit", "-qam", "fast and better"]);
    const fast = git(dir, ["rev-parse", "HEAD"]).trim();
    await pollUntil(() => ledger("researcher-2").lastVerified === fast, {
      what: "the newer commit to be verified",
      timeoutMs: 15_000,
    });
    expect(ledger("researcher-2")).toMatchObject({ best: { commit: fast, metric: 0.7 }, lastVerified: fast });
    expect(branchHead("researcher-2")).toBe(fast);
    const patch = patchFile("researcher-2", slow, "discard");
    expect(readFileSync(patch, "utf8")).toBe(git(org.dir, [...PATCH, best, slow]));
    rows.push(
      [slow, "0.950000", "1.5", "discard", "slow and worse", "researcher-2", "cpu"],
      [fast.slice(0, 7), "0.700000", "1.5", "keep", "fast and better", "researcher-2", "cpu"],
    );
    expect(readRows()).toEqual(rows);
    const inbox = inboxText("researcher-2").replace(/^## \[[^\]]+\]/gm, "## [T]");
    expect(inbox).toContain(
      `## [T] verdict discard for ${slow}\ndiscard: val_bpb 0.9500 not better than best 0.8000 (+0.1500)\nYour ` +
        `branch has moved on to ${fast.slice(0, 7)}, so it was not reset; ` +
        `that commit gets its own verdict. The diff is saved in ${patch}.\n`,
    );
    kept["researcher-2"] = fast;
  });

  test("two agents submitting at once with one slot: both judged, one run after the other", async () => {
    const trace = join(scratch, "trace.txt");
    const traced = `#!/bin/sh\necho "start $ORG_AGENT" >> ${trace}\nsleep 0.4\necho "val_bpb: ` +
      `$(cat value.txt)"\necho "peak_vram_mb: 1536"\necho "end $ORG_AGENT" >> ${trace}\n`;
    writeFileSync(join(worktree("researcher-1"), "train.sh"), traced);
    writeFileSync(join(worktree("researcher-1"), "value.txt"), "0.850\n");
    writeFileSync(join(worktree("researcher-2"), "train.sh"), traced);
    writeFileSync(join(worktree("researcher-2"), "value.txt"), "0.750\n");
    const [one, two] = await Promise.all([
      submitAsync("researcher-1", "trace and lower"),
      submitAsync("researcher-2", "trace and raise"),
    ]);
    const bestOfTwo = kept["researcher-2"]!.slice(0, 7);
    expect(one.lines).toEqual([
      `submitted ${one.short} "trace and lower"; waiting for the verifier…`,
      `metric 0.850000 · your best 0.850000 (${one.short}) · delta -0.150000 · keep`,
      "keep: val_bpb 0.8500 beats best 1.0000 by 0.1500 > min_delta 0.0000 (σ unknown: no repeated baseline yet)",
    ]);
    expect(two.lines).toEqual([
      `submitted ${two.short} "trace and raise"; waiting for the verifier…`,
      `metric 0.750000 · your best 0.700000 (${bestOfTwo}) · delta +0.050000 · discard`,
      "discard: val_bpb 0.7500 not better than best 0.7000 (+0.0500)",
      `your branch was reset to ${bestOfTwo}; the diff is saved in ${patchFile("researcher-2", two.short, "discard")}`,
    ]);
    const order = readFileSync(trace, "utf8").split("\n").filter(Boolean);
    const [first, second] =
      order[0] === "start researcher-1" ? ["researcher-1", "researcher-2"] : ["researcher-2", "researcher-1"];
    expect(order).toEqual([`start ${first}`, `end ${first}`, `start ${second}`, `end ${second}`]);
    const pair = {
      "researcher-1": [one.short, "0.850000", "1.5", "keep", "trace and lower", "researcher-1", "cpu"],
      "researcher-2": [two.short, "0.750000", "1.5", "discard", "trace and raise", "researcher-2", "cpu"],
    };
    rows.push(pair[first as keyof typeof pair], pair[second as keyof typeof pair]);
    expect(readRows()).toEqual(rows);
    kept["researcher-1"] = branchHead("researcher-1");
    expect(kept["researcher-1"].slice(0, 7)).toBe(one.short);
    expectResetTo("researcher-2", kept["researcher-2"]!);
  });

  test("`org results --json` ranks the agents from results.tsv", () => {
    const results = runOrg(["results", "--json"], { cwd: org.dir });
    expect(results.code).toBe(0);
    const best1 = kept["researcher-1"]!.slice(0, 7);
    const best2 = kept["researcher-2"]!.slice(0, 7);
    expect(JSON.parse(results.stdout)).toEqual({
      metric: "val_bpb",
      goal: "minimize",
      // One run per baseline here (repeats: 1): no spread to estimate the noise from.
      sigma: null,
      // Experiments as `org history` and the stop conditions count them: the baselines are no runs.
      counts: { experiments: 5, answered: 0, baselines: 2 },
      agents: [
        {
          agent: "researcher-2",
          runs: 4,
          answered: 0,
          counts: { keep: 2, discard: 2, crash: 0, reject: 0, fail: 0 },
          baseline: 1,
          best: 0.7,
          bestCommit: best2,
          delta: 0.7 - 1,
        },
        {
          agent: "researcher-1",
          runs: 1,
          answered: 0,
          counts: { keep: 1, discard: 0, crash: 0, reject: 0, fail: 0 },
          baseline: 1,
          best: 0.85,
          bestCommit: best1,
          delta: 0.85 - 1,
        },
      ],
      best: { agent: "researcher-2", commit: best2, metric: 0.7 },
      duplicates: { answered: 0, savedSeconds: 0 },
      // One CPU slot (parallel: 1), busy with every run above (the slow one's 1 s among them), each its own interval.
      utilization: expect.objectContaining({
        unit: "slot",
        gpus: 1,
        overall: expect.any(Number),
        busySeconds: expect.any(Number),
      }),
    });
    const { utilization } = JSON.parse(results.stdout) as { utilization: { overall: number; busySeconds: number } };
    expect(utilization.busySeconds).toBeGreaterThan(1);
    expect(utilization.overall).toBeGreaterThan(0);
    expect(utilization.overall).toBeLessThanOrEqual(1);
    const runs = readFileSync(join(state, "gpu-runs.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { end?: string; slot: string });
    expect(runs.filter((run) => run.end).map((run) => run.slot)).toEqual(Array(runs.length / 2).fill("cpu0"));
  });

  test("`org down` stops the daemon, the agents and the tmux server", () => {
    const daemon = readJsonFile<{ pid: number }>(join(state, "daemon.json")).pid;
    const agents = ["researcher-1", "researcher-2"].map((agent) =>
      readJsonFile<AgentStatus>(join(state, "agents", agent, "status.json")),
    );
    const pids = [daemon, ...agents.map((status) => status.pid)].filter((pid): pid is number => pid !== null);
    expect(pids).toHaveLength(3);
    expect(pids.every(isRunning)).toBe(true);
    expect(runOrg(["down"], { cwd: org.dir }).code).toBe(0);
    expect(tmux(org.socket, ["has-session"]).code).not.toBe(0);
    expect(pids.filter(isRunning)).toEqual([]);
    expect(existsSync(join(state, "daemon.json"))).toBe(false);
  });
});
