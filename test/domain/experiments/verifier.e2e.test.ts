import { existsSync, lstatSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { AgentStatus } from "../../../src/domain/state.js";
import type { AgentLedger } from "../../../src/domain/experiments/request.js";
import { isRunning } from "../../helpers/processes.js";
import { runOrg, runOrgAsync, type CliResult } from "../../helpers/org-cli.js";
import { pollUntil } from "../../helpers/poll.js";
import { git, makeTempDir, removeDir } from "../../helpers/temp-repo.js";
import {
  createTestOrg, upUntilBaselines, idleOrgYaml, readJsonFile, teardownOrg, type TestOrg, tmux,
} from "../../helpers/test-org/index.js";

// Two researchers whose agent program idles: the test is the agent, editing worktrees and running `org submit`.
// One verify slot and a 2 s timeout, so two submits queue behind each other and a hang is killed quickly.
// A function: `scratch` is made in beforeAll.
const orgYaml = (name: string) => idleOrgYaml(", count: 2, edits: [train.sh, value.txt]", `verify:
  command: [sh, train.sh]
  protected: [prepare.sh]
  metric: { name: val_bpb, pattern: '^val_bpb:\\s*([0-9.]+)', goal: minimize }
  memory: { pattern: '^peak_vram_mb:\\s*([0-9.]+)' }
  timeout: 2s
  parallel: 1
  repeats: 1                    # the loop's mechanics, not the noise rule (./experiment.test.ts covers that)
  keep: { k: 2, min_delta: 0, confirm: 0 }
# The verify runs are sandboxed: the tests' traces go to a folder declared writable.
sandbox: { write: ["${scratch}"] }
`)(name);

// The toy research repo: the metric is whatever value.txt says, so a test sets it by editing one file.
const TRAIN = '#!/bin/sh\necho "val_bpb: $(cat value.txt)"\necho "peak_vram_mb: 1536"\n';
const PREPARE = "#!/bin/sh\n# data preparation: fixed; the verifier restores it from base before every run\n";
const PATTERN = "^val_bpb:\\s*([0-9.]+)";

const readCmdline = (pid: string) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return "";
  }
};

let org: TestOrg;
let scratch: string;
let state: string;
const worktree = (agent: string) => join(org.dir, "worktrees", agent);
const branchHead = (agent: string) => git(org.dir, ["rev-parse", `org/${org.name}/${agent}`]).trim();
const ledger = (agent: string) => readJsonFile<AgentLedger>(join(state, "agents", agent, "ledger.json"));
// A saved patch as the verifier writes it: the tried key's diff, full hashes and no renames.
const PATCH = ["diff", "--binary", "--full-index", "--no-renames", "--no-color", "--no-ext-diff"];
const patchFile = (agent: string, short: string, kind: string) =>
  join(state, "patches", `${agent}-${short}-${kind}.patch`);
// What the suite has verified so far, checked whole against results.tsv at the end.
const rows: string[][] = [];
let base = "";
const kept: Record<string, string> = {};

describe("the verifier judges submitted experiments", () => {
  beforeAll(async () => {
    scratch = makeTempDir("org-verifier-scratch-");
    org = createTestOrg({ yaml: orgYaml, files: { "train.sh": TRAIN, "prepare.sh": PREPARE, "value.txt": "1.000\n" } });
    state = join(org.dir, "state");
    base = git(org.dir, ["rev-parse", "main"]).trim();
    await upUntilBaselines(org, ["researcher-1", "researcher-2"], 20_000);
  }, 60_000);

  afterAll(() => {
    teardownOrg(org);
    removeDir(scratch);
  });

  test("at start every agent's baseline runs on the unmodified base", () => {
    const short = base.slice(0, 7);
    rows.push(
      [short, "1.000000", "1.5", "keep", "baseline", "researcher-1", "cpu"],
      [short, "1.000000", "1.5", "keep", "baseline", "researcher-2", "cpu"],
    );
    expect(readRows()).toEqual(rows);
    for (const agent of ["researcher-1", "researcher-2"]) {
      expect(ledger(agent)).toMatchObject({ best: { commit: base, metric: 1 }, lastVerified: base });
      expect(lastInbox(agent)).toBe(`## [T] verdict baseline for ${short}\nbaseline: val_bpb 1.0000\n`);
      kept[agent] = base;
    }
  });

  test("an improvement is kept: the branch stays and the best advances", () => {
    writeFileSync(join(worktree("researcher-1"), "value.txt"), "0.900\n");
    const { short, lines } = submit("researcher-1", "lower the value");
    expect(lines).toEqual([
      `submitted ${short} "lower the value"; waiting for the verifier…`,
      `metric 0.900000 · your best 0.900000 (${short}) · delta -0.100000 · keep`,
      "keep: val_bpb 0.9000 beats best 1.0000 by 0.1000 > min_delta 0.0000 (σ unknown: no repeated baseline yet)",
    ]);
    const commit = branchHead("researcher-1");
    expect(commit.slice(0, 7)).toBe(short);
    expect(git(worktree("researcher-1"), ["rev-parse", "HEAD"]).trim()).toBe(commit);
    expect(ledger("researcher-1")).toMatchObject({ best: { commit, metric: 0.9 }, lastVerified: commit });
    rows.push([short, "0.900000", "1.5", "keep", "lower the value", "researcher-1", "cpu"]);
    expect(readRows()).toEqual(rows);
    expect(lastInbox("researcher-1")).toBe(
      `## [T] verdict keep for ${short}\nkeep: val_bpb 0.9000 beats best 1.0000 by 0.1000 > min_delta 0.0000 (σ ` +
        `unknown: no repeated baseline yet)\n`,
    );
    kept["researcher-1"] = commit;
  });

  test("a regression is discarded: diff saved, branch reset to the best, agent told", () => {
    const best = kept["researcher-1"]!;
    writeFileSync(join(worktree("researcher-1"), "value.txt"), "0.950\n");
    const { short, lines } = submit("researcher-1", "raise the value");
    const patch = patchFile("researcher-1", short, "discard");
    expect(lines).toEqual([
      `submitted ${short} "raise the value"; waiting for the verifier…`,
      `metric 0.950000 · your best 0.900000 (${best.slice(0, 7)}) · delta +0.050000 · discard`,
      "discard: val_bpb 0.9500 not better than best 0.9000 (+0.0500)",
      `your branch was reset to ${best.slice(0, 7)}; the diff is saved in ${patch}`,
    ]);
    expectResetTo("researcher-1", best);
    expect(readFileSync(join(worktree("researcher-1"), "value.txt"), "utf8")).toBe("0.900\n");
    expect(readFileSync(patch, "utf8")).toBe(git(org.dir, [...PATCH, best, short]));
    expect(readFileSync(patch, "utf8")).toContain("-0.900\n+0.950\n");
    rows.push([short, "0.950000", "1.5", "discard", "raise the value", "researcher-1", "cpu"]);
    expect(readRows()).toEqual(rows);
    expect(lastInbox("researcher-1")).toBe(
      `## [T] verdict discard for ${short}\ndiscard: val_bpb 0.9500 not better than best 0.9000 (+0.0500)\nYour ` +
        `branch was reset to ${best.slice(0, 7)}; the diff is saved in ${patch}.\n`,
    );
  });

  test("a commit that edits or deletes the protected file is rejected without running", () => {
    const best = kept["researcher-1"]!;
    const tampers = [
      {
        message: "skip the slow part of data prep",
        change: () => writeFileSync(join(worktree("researcher-1"), "prepare.sh"), `${PREPARE}exit 0\n`),
      },
      { message: "drop data prep", change: () => rmSync(join(worktree("researcher-1"), "prepare.sh")) },
    ];
    for (const { message, change } of tampers) {
      change();
      const { short, lines } = submit("researcher-1", message);
      const patch = patchFile("researcher-1", short, "reject");
      expect(lines).toEqual([
        `submitted ${short} "${message}"; waiting for the verifier…`,
        `metric no metric · your best 0.900000 (${best.slice(0, 7)}) · delta - · reject`,
        "reject: touches protected prepare.sh",
        `your branch was reset to ${best.slice(0, 7)}; the diff is saved in ${patch}`,
      ]);
      expectResetTo("researcher-1", best);
      expect(readFileSync(join(worktree("researcher-1"), "prepare.sh"), "utf8")).toBe(PREPARE);
      expect(readFileSync(patch, "utf8")).toBe(git(org.dir, [...PATCH, best, short]));
      expect(readdirSync(join(state, "runs")).filter((file) => file.includes(short))).toEqual([]);
      rows.push([short, "0.000000", "0.0", "reject", message, "researcher-1", "cpu"]);
      expect(readRows()).toEqual(rows);
      expect(lastInbox("researcher-1")).toBe(
        `## [T] verdict reject for ${short}\nreject: touches protected prepare.sh\nYour branch was reset to ` +
          `${best.slice(0, 7)}; the diff is saved in ${patch}.\n`,
      );
    }
  });

  test("a run that prints no metric is a crash; submit shows the last 50 lines of its log", () => {
    const best = kept["researcher-1"]!;
    // 61 lines, the last cut off without its newline, like a run killed mid-print.
    writeFileSync(
      join(worktree("researcher-1"), "train.sh"),
      "#!/bin/sh\nfor i in $(seq 1 60); do echo \"line $i\"; done\nprintf 'Traceback: boom'\nexit 3\n",
    );
    const { short, lines } = submit("researcher-1", "rewrite the loop");
    const logFile = runLog("researcher-1", short);
    expect(lines).toEqual([
      `submitted ${short} "rewrite the loop"; waiting for the verifier…`,
      `metric no metric · your best 0.900000 (${best.slice(0, 7)}) · delta - · crash`,
      `crash: no line matched /${PATTERN}/; exit code 3`,
      `your branch was reset to ${best.slice(0, 7)}; the diff is saved in ${patchFile("researcher-1", short, "crash")}`,
      `last lines of ${logFile}:`,
      ...Array.from({ length: 49 }, (_, index) => `line ${index + 12}`),
      "Traceback: boom",
    ]);
    expectResetTo("researcher-1", best);
    expect(readFileSync(join(worktree("researcher-1"), "train.sh"), "utf8")).toBe(TRAIN);
    rows.push([short, "0.000000", "0.0", "crash", "rewrite the loop", "researcher-1", "cpu"]);
    expect(readRows()).toEqual(rows);
  });

  test("a run past the timeout is a crash and its whole process group is killed", async () => {
    const best = kept["researcher-1"]!;
    // Found by its arguments: in the run's sandbox (its own pid namespace) `$!` is not the host's pid.
    const nap = `300.${process.pid}`;
    writeFileSync(join(worktree("researcher-1"), "train.sh"), `#!/bin/sh\necho "epoch 1"\nsleep ${nap} &\nwait\n`);
    const { short, lines } = submit("researcher-1", "train longer");
    expect(lines).toEqual([
      `submitted ${short} "train longer"; waiting for the verifier…`,
      `metric no metric · your best 0.900000 (${best.slice(0, 7)}) · delta - · crash`,
      "crash: timed out after 2s; process group killed",
      `your branch was reset to ${best.slice(0, 7)}; the diff is saved in ${patchFile("researcher-1", short, "crash")}`,
      `last lines of ${runLog("researcher-1", short)}:`,
      "epoch 1",
    ]);
    // The forked sleep is gone too, well within the 2 s grace before SIGKILL: SIGTERM reached the group.
    const sleepers = () =>
      readdirSync("/proc").filter((pid) => /^\d+$/.test(pid) && readCmdline(pid) === `sleep\0${nap}\0`);
    await pollUntil(() => sleepers().length === 0, { what: `the forked sleep ${nap} to be killed`, timeoutMs: 1000 });
    expectResetTo("researcher-1", best);
    rows.push([short, "0.000000", "0.0", "crash", "train longer", "researcher-1", "cpu"]);
    expect(readRows()).toEqual(rows);
    const seconds = readFileSync(join(state, "results.tsv"), "utf8").trimEnd().split("\n").at(-1)!.split("\t")[7];
    expect(Number(seconds)).toBeGreaterThanOrEqual(2);
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
      `metric 0.850000 · your best 0.850000 (${one.short}) · delta -0.050000 · keep`,
      "keep: val_bpb 0.8500 beats best 0.9000 by 0.0500 > min_delta 0.0000 (σ unknown: no repeated baseline yet)",
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
      counts: { experiments: 11, answered: 0, baselines: 2 },
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
          runs: 7,
          answered: 0,
          counts: { keep: 2, discard: 1, crash: 2, reject: 2, fail: 0 },
          baseline: 1,
          best: 0.85,
          bestCommit: best1,
          delta: 0.85 - 1,
        },
      ],
      best: { agent: "researcher-2", commit: best2, metric: 0.7 },
      duplicates: { answered: 0, savedSeconds: 0 },
      // One CPU slot (parallel: 1), busy with every run above (the 2 s timeout among them), each its own interval.
      utilization: expect.objectContaining({
        unit: "slot",
        gpus: 1,
        overall: expect.any(Number),
        busySeconds: expect.any(Number),
      }),
    });
    const { utilization } = JSON.parse(results.stdout) as { utilization: { overall: number; busySeconds: number } };
    expect(utilization.busySeconds).toBeGreaterThan(2);
    expect(utilization.overall).toBeGreaterThan(0);
    expect(utilization.overall).toBeLessThanOrEqual(1);
    const runs = readFileSync(join(state, "gpu-runs.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { end?: string; slot: string });
    expect(runs.filter((run) => run.end).map((run) => run.slot)).toEqual(Array(runs.length / 2).fill("cpu0"));
  });

  test("log.md has one entry per verdict, in order", () => {
    const entries = readFileSync(join(state, "log.md"), "utf8")
      .split(/\n(?=## \[)/)
      .map((entry) => entry.trim().replace(/^## \[\d{4}-\d\d-\d\d\]/, "## [D]"));
    // A stack (researcher-1's last keep onto researcher-2's best: a
    // conflict in value.txt) is the org's, not a verdict of the rows.
    const verdicts = entries.filter((entry) => !/^## \[D\] (up|down|frontier|program|stack) \|/.test(entry));
    expect(verdicts.map((entry) => entry.split("\n")[0])).toEqual(
      rows.map(([short, , , status, description, agent]) => {
        const op = description === "baseline" ? "baseline" : status;
        return `## [D] ${op} | ${agent} ${short} ${description}`;
      }),
    );
    expect(verdicts[3]).toBe(
      `## [D] discard | researcher-1 ${rows[3]![0]} raise the value\ndiscard: ` +
        `val_bpb 0.9500 not better than best 0.9000 (+0.0500)`,
    );
    expect(verdicts[7]).toBe(
      `## [D] crash | researcher-1 ${rows[7]![0]} train longer\ncrash: timed out after 2s; process group killed`,
    );
  });

  test("an editable file committed as a symbolic link into the scorer, " +
    "or to the repo's own scorer by its absolute path, is rejected unrun and reported", () => {
    const agent = "researcher-1";
    const links = [
      {
        message: "value from prep",
        path: "value.txt",
        target: "prepare.sh",
        reason: "value.txt is a symbolic link to protected prepare.sh: commit the file itself",
      },
      {
        message: "train is prep",
        path: "train.sh",
        target: join(org.dir, "prepare.sh"),
        reason: `train.sh is a symbolic link out of the repo (${join(org.dir, "prepare.sh")}): commit the file itself`,
      },
    ];
    for (const { message, path, target, reason } of links) {
      const best = ledger(agent).best!;
      rmSync(join(worktree(agent), path));
      symlinkSync(target, join(worktree(agent), path));
      const { short, lines } = submit(agent, message);
      const patch = patchFile(agent, short, "reject");
      expect(lines).toEqual([
        `submitted ${short} "${message}"; waiting for the verifier…`,
        `metric no metric · your best ${best.metric.toFixed(6)} (${best.commit.slice(0, 7)}) · delta - · reject`,
        `reject: ${reason}`,
        `your branch was reset to ${best.commit.slice(0, 7)}; the diff is saved in ${patch}`,
      ]);
      expectResetTo(agent, best.commit);
      expect(lstatSync(join(worktree(agent), path)).isSymbolicLink()).toBe(false);
      expect(readdirSync(join(state, "runs")).filter((file) => file.includes(short))).toEqual([]);
      expect(readRows().at(-1)).toEqual([short, "0.000000", "0.0", "reject", message, agent, "cpu"]);
      expect(lastInbox(agent)).toBe(
        `## [T] verdict reject for ${short}\nreject: ${reason}\nYour branch was reset to ${best.commit.slice(0, 7)}; ` +
          `the diff is saved in ${patch}.\n`,
      );
      expect(readFileSync(join(state, "log.md"), "utf8")).toContain(
        `reject | ${agent} ${short} ${message}\nreject: ${reason}`,
      );
    }
    expect(readFileSync(join(org.dir, "prepare.sh"), "utf8")).toBe(PREPARE);
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

/** One `org submit -m` from the agent's worktree, as the agent would run it (no ORG_ROOT: found from cwd). */
function submit(agent: string, message: string): { short: string; lines: string[] } {
  return parseSubmit(runOrg(["submit", "-m", message], { cwd: worktree(agent) }));
}

async function submitAsync(agent: string, message: string): Promise<{ short: string; lines: string[] }> {
  return parseSubmit(await runOrgAsync(["submit", "-m", message], { cwd: worktree(agent), timeoutMs: 30_000 }));
}

function parseSubmit(result: CliResult): { short: string; lines: string[] } {
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  const lines = result.stdout.replace(/\n$/, "").split("\n");
  return { short: /^submitted ([0-9a-f]{7}) /.exec(lines[0]!)?.[1] ?? "", lines };
}


/** results.tsv without the seconds and time columns, which are checked for shape only. */
function readRows(): string[][] {
  const lines = readFileSync(join(state, "results.tsv"), "utf8").split("\n");
  expect(lines.pop()).toBe("");
  expect(lines.shift()).toBe(
    "commit\tval_bpb\tmemory_gb\tstatus\tdescription\tagent\tgpu\tseconds\ttime\tprogram\tlines_added\tlines_removed",
  );
  return lines.map((line) => {
    const fields = line.split("\t");
    expect(fields).toHaveLength(12);
    expect(fields[7]).toMatch(/^\d+\.\d$/);
    expect(fields[8]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // `org up` recorded the program every row ran under.
    expect(fields[9]).toMatch(/^[0-9a-f]{8}$/);
    return fields.slice(0, 7);
  });
}

/** The newest inbox message, its time replaced by T. */
function lastInbox(agent: string): string {
  const text = inboxText(agent);
  return text.slice(text.lastIndexOf("\n## [") + 1).replace(/^## \[[^\]]+\]/, "## [T]").replace(/\n+$/, "\n");
}

/** The verdict messages in an agent's inbox folder, oldest first: each one from the verifier, of kind verdict. */
function inboxText(agent: string): string {
  const dir = join(state, "agents", agent, "inbox");
  return readdirSync(dir).filter((name) => name.endsWith(".md")).sort().map((name) => {
    const text = readFileSync(join(dir, name), "utf8");
    expect(text).toMatch(
      new RegExp(
        `^---\\nid: ${name.slice(0, -3)}\\nfrom: verifier\\nto: ${agent}\\ntime: \\S+\\nkind: ` +
          `verdict\\n---\\n\\n## \\[`,
      ),
    );
    return text.slice(text.indexOf("\n---\n\n") + 6);
  }).join("");
}

function runLog(agent: string, short: string): string {
  const logs = readdirSync(join(state, "runs")).filter((file) => file.endsWith(`-${agent}-${short}.log`));
  expect(logs).toHaveLength(1);
  return join(state, "runs", logs[0]!);
}

/** The branch and its worktree point at `commit`, with nothing left over in the worktree. */
function expectResetTo(agent: string, commit: string): void {
  expect(branchHead(agent)).toBe(commit);
  expect(git(worktree(agent), ["rev-parse", "HEAD"]).trim()).toBe(commit);
  expect(git(worktree(agent), ["status", "--porcelain"])).toBe("");
}

// A killed child whose parent died first can stay a zombie until init reaps it; it no longer runs.
