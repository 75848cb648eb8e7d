// The verifier judges submitted experiments, one verdict of each kind, on a real org whose agents idle: the test is
// the agent, editing worktrees and running `org submit` (test/helpers/verifier-org.ts).
import { lstatSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { pollUntil } from "../../helpers/poll.js";
import { git } from "../../helpers/temp-repo.js";
import {
  base, baselineRows, branchHead, expectResetTo, lastInbox, ledger, org, PATCH, patchFile, PATTERN, PREPARE,
  readRows, runLog, state, submit, TRAIN, upVerifierOrg, worktree,
} from "../../helpers/verifier-org.js";

upVerifierOrg();

const readCmdline = (pid: string) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return "";
  }
};

// What the file has verified so far, checked whole against results.tsv after each verdict.
const rows: string[][] = [];
const kept: Record<string, string> = {};

describe("the verifier gives each kind of verdict", () => {
  test("at start every agent's baseline runs on the unmodified base", () => {
    const short = base.slice(0, 7);
    rows.push(...baselineRows());
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

  test("log.md has one entry per verdict, in order", () => {
    const entries = readFileSync(join(state, "log.md"), "utf8")
      .split(/\n(?=## \[)/)
      .map((entry) => entry.trim().replace(/^## \[\d{4}-\d\d-\d\d\]/, "## [D]"));
    // The org's own entries (up, a frontier move, a stack of one agent's keep onto another's best) are no verdicts.
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
});
