// `org submit` hands the verifier the commit it made, even when the verifier resets the branch at that very moment.
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { commitOnto, type MoveRef, type WorktreeGit } from "../../../src/adapters/git/commit-onto.js";
import { moveRefFile } from "../../../src/adapters/git/ref-file.js";
import { processRunner } from "../../../src/adapters/process.js";
import type { ExperimentRequest } from "../../../src/domain/experiments/request.js";
import { runOrgAsync } from "../../helpers/org-cli.js";
import { pollUntil } from "../../helpers/poll.js";
import { createRepo, git, removeDir, writeFiles } from "../../helpers/temp-repo.js";
import { createTestOrg } from "../../helpers/test-org/index.js";

let dir: string | undefined;
afterEach(() => {
  if (dir) removeDir(dir);
  dir = undefined;
});

describe("org submit commits onto the HEAD it saw", () => {
  test("the branch takes the commit only if it still points where it did; " +
    "else nothing is committed, with the reason", async () => {
    dir = createRepo({ "value.txt": "1\n" });
    const base = git(dir, ["rev-parse", "HEAD"]).trim();
    const run: WorktreeGit = (args) => processRunner.run(["git", ...args], { cwd: dir });
    writeFileSync(join(dir, "value.txt"), "2\n");
    git(dir, ["add", "--all"]);
    const branch = git(dir, ["symbolic-ref", "HEAD"]).trim();
    const common = join(dir, ".git");
    const move: MoveRef = async (ref, commit, before) =>
      (await moveRefFile({ top: common, common, ref, commit, from: before }))?.kind === "moved";
    const made = await commitOnto(run, move, base, "two", branch);
    expect(made.kind).toBe("committed");
    const commit = made.kind === "committed" ? made.commit : "";
    expect(git(dir, ["log", "-1", "--format=%H %P %s"]).trim()).toBe(`${commit} ${base} two`);
    expect(git(dir, ["status", "--porcelain"])).toBe("");
    writeFileSync(join(dir, "value.txt"), "3\n");
    git(dir, ["add", "--all"]);
    // The verifier's reset lands between the commit object and the branch update.
    const racing: MoveRef = (ref, made, before) => {
      git(dir!, ["update-ref", "HEAD", base]);
      return move(ref, made, before);
    };
    expect(await commitOnto(run, racing, commit, "three", branch)).toEqual({
      kind: "moved",
      reason: `your branch moved from ${commit.slice(0, 7)} to ${base.slice(0, 7)} while committing (the verifier ` +
        `applied a verdict; see \`org inbox\`); nothing was committed — run org submit again`,
    });
    expect(git(dir, ["rev-parse", "HEAD"]).trim()).toBe(base);
  });

  test("the verifier resets the branch right after the agent's commit lands: " +
    "the request still names that commit, not the branch's new head", async () => {
    // The test is the daemon: alive by its heartbeat, and it answers the request.
    const { base, worktree, ...org } = createTestOrg({
      daemon: false,
      judged: true,
      state: { "state/daemon.json": JSON.stringify({ pid: process.pid, heartbeatAt: new Date().toISOString() }) },
    });
    dir = org.dir;
    writeFileSync(join(worktree, "value.txt"), "2\n");
    // The verifier's reset, played by the test: the branch back to the base the moment the commit lands on it.
    const branch = git(worktree, ["symbolic-ref", "HEAD"]).trim();
    const branchFile = join(dir, ".git", branch);
    const raced = pollUntil(() => {
      const at = readFileSync(branchFile, "utf8").trim();
      if (at === base) return undefined;
      git(dir!, ["update-ref", branch, base]);
      return at;
    }, { what: "the commit landing on the branch", timeoutMs: 20_000, intervalMs: 1 });
    const submit = runOrgAsync(["submit", "-m", "double it"], { cwd: worktree, timeoutMs: 30_000 });
    const queue = join(dir, "state", "queue");
    const request = await pollUntil(() => {
      const name = existsSync(queue) ? readdirSync(queue).find((file) => file.endsWith(".json")) : undefined;
      return name ? (JSON.parse(readFileSync(join(queue, name), "utf8")) as ExperimentRequest) : undefined;
    }, { what: "the submitted request", timeoutMs: 20_000 });
    expect(await raced).toBe(request.commit);
    expect(git(dir, ["rev-parse", branch]).trim()).toBe(base);
    expect(git(dir, ["log", "-1", "--format=%P %s", request.commit]).trim()).toBe(`${base} double it`);
    expect(request).toMatchObject({ agent: "researcher-1", description: "double it", kind: "candidate" });
    const outcome = {
      request,
      verdict: { kind: "discard", metric: 2, delta: 1, reason: "discard: worse" },
      metric: 2, seconds: 1, runSeconds: 1, samples: [2], logFile: "x.log", logTail: "", head: base, patch: "p.patch",
    };
    // Whole or not at all, as the daemon writes it: the waiting submit polls the file every 50 ms.
    const verdict = join(dir, "state", "verdicts", `${request.id}.json`);
    writeFiles(dir, {
      [`state/verdicts/${request.id}.json.tmp`]: JSON.stringify({
        id: request.id, outcome, best: { commit: base, metric: 1 },
      }),
    });
    renameSync(`${verdict}.tmp`, verdict);
    const result = await submit;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`submitted ${request.commit.slice(0, 7)} "double it"; waiting for the verifier…`);
  });
});
