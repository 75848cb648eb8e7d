import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { isRunning } from "../helpers/processes.js";
import { runOrg } from "../helpers/org-cli.js";
import { bin, tmux } from "../helpers/org-fixture.js";
import { pollUntil } from "../helpers/poll.js";
import { git, removeDir } from "../helpers/temp-repo.js";
import { createRng } from "../fuzz/rng.js";
import { collectFacts, findLeftovers } from "./collect.js";
import { countRows, createDemoOrg, readDaemonPid, startDemo, waitForRows, type DemoOrg } from "./demo-org.js";
import { checkInvariants } from "./invariants.js";

// `npm run faults` runs the full counts; ORG_FAULTS_KILLS and ORG_FAULTS_SEED change them.
const KILLS = Number(process.env.ORG_FAULTS_KILLS ?? 20);
const rng = createRng(Number(process.env.ORG_FAULTS_SEED ?? 1));

let org: DemoOrg | undefined;
afterEach(() => {
  if (org) {
    runOrg(["down"], { cwd: org.root });
    tmux(org.socket, ["kill-server"]);
    removeDir(org.root);
  }
  org = undefined;
});

/** `org down`, then every invariant over what is on disk; the org must be gone. */
function downAndCheck(current: DemoOrg): void {
  expect(runOrg(["down"], { cwd: current.root }).code).toBe(0);
  expect(checkInvariants(collectFacts(current.root))).toEqual([]);
}

async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

describe("faults on the demo org: nothing is lost", () => {
  test(`kill -9 of the daemon ${KILLS} times at random moments, each followed by org up`, async () => {
    org = createDemoOrg();
    startDemo(org);
    await waitForRows(org, 2);
    for (let kill = 0; kill < KILLS; kill++) {
      // Random moments: during a verify run, between a row and its reset, while idle.
      await sleep(rng.int(0, 3000));
      const pid = await pollUntil(() => readDaemonPid(org!), { what: "daemon.json" });
      process.kill(pid, "SIGKILL");
      await pollUntil(() => !isRunning(pid), { what: `daemon ${pid} dead` });
      expect(runOrg(["up", "--no-attach"], { cwd: org.root }).code).toBe(0);
      const next = await pollUntil(() => {
        const current = readDaemonPid(org!);
        return current !== undefined && current !== pid && isRunning(current) ? current : undefined;
      }, { what: "a new daemon after org up", timeoutMs: 20_000 });
      expect(next).not.toBe(pid);
    }
    await waitForRows(org, 2);
    downAndCheck(org);
  }, 600_000);

  test("the tmux server killed from outside: org up brings the org back and it goes on", async () => {
    org = createDemoOrg();
    startDemo(org);
    await waitForRows(org, 2);
    tmux(org.socket, ["kill-server"]);
    expect(runOrg(["up", "--no-attach"], { cwd: org.root }).code).toBe(0);
    await waitForRows(org, 2);
    downAndCheck(org);
  }, 300_000);

  test("an agent pane closed by hand: the agent comes back, the others never stop", async () => {
    org = createDemoOrg();
    startDemo(org);
    await waitForRows(org, 2);
    const panes = tmux(org.socket, ["list-panes", "-s", "-F", "#{pane_id} #{@org_agent}"]).out.split("\n").filter((line) => line.endsWith(" researcher-1"));
    expect(panes).toHaveLength(1);
    tmux(org.socket, ["kill-pane", "-t", panes[0]!.split(" ")[0]!]);
    expect(runOrg(["up", "--no-attach"], { cwd: org.root }).code).toBe(0);
    await pollUntil(() => tmux(org!.socket, ["list-panes", "-s", "-F", "#{@org_agent} #{pane_dead}"]).out.includes("researcher-1 0"), { what: "researcher-1's pane back", timeoutMs: 30_000 });
    await waitForRows(org, 2);
    downAndCheck(org);
  }, 300_000);

  test("a verify command that hangs and forks children is killed as a group, no orphans", async () => {
    org = createDemoOrg({ count: 1, runtime: `{ command: ["${bin("forever")}"] }`, verifyCommand: [bin("hang-fork")], timeout: "3s" });
    startDemo(org);
    await pollUntil(() => countRows(org!) > 0 && readFileSync(join(org!.root, "state/results.tsv"), "utf8").includes("\tcrash\t"), { what: "the hung baseline recorded as crash", timeoutMs: 60_000 });
    await pollUntil(() => findLeftovers(org!.root, "none").filter((line) => line.includes("sleep 3600")).length === 0, { what: "no hang-fork child left", timeoutMs: 10_000 });
    downAndCheck(org);
  }, 120_000);

  test("a stale .git/index.lock in the research repo: experiments go on", async () => {
    org = createDemoOrg();
    startDemo(org);
    await waitForRows(org, 1);
    writeFileSync(join(org.repo, ".git/index.lock"), "");
    await waitForRows(org, 3);
    downAndCheck(org);
  }, 300_000);

  test("a worktree deleted by hand: org up after org down recreates it from its branch", async () => {
    org = createDemoOrg();
    startDemo(org);
    await waitForRows(org, 2);
    expect(runOrg(["down"], { cwd: org.root }).code).toBe(0);
    const head = git(org.repo, ["rev-parse", `org/${org.name}/researcher-1`]).trim();
    rmSync(join(org.root, "worktrees/researcher-1"), { recursive: true, force: true });
    expect(runOrg(["up", "--no-attach"], { cwd: org.root }).code).toBe(0);
    expect(existsSync(join(org.root, "worktrees/researcher-1/train.mjs"))).toBe(true);
    expect(git(join(org.root, "worktrees/researcher-1"), ["rev-parse", "HEAD"]).trim()).toBe(head);
    await waitForRows(org, 2);
    downAndCheck(org);
  }, 300_000);

  test("tampering: every commit touching a protected file is rejected", async () => {
    org = createDemoOrg({ count: 2, runtime: `{ command: ["${bin("forever")}"] }` });
    startDemo(org);
    await waitForRows(org, 2);
    const tampered: string[] = [];
    for (const [index, agent] of ["researcher-1", "researcher-2", "researcher-1"].entries()) {
      const worktree = join(org.root, "worktrees", agent);
      await pollUntil(() => !existsSync(join(org!.root, "state/queue")) || execFileSync("ls", [join(org!.root, "state/queue")], { encoding: "utf8" }).trim() === "", { what: "an empty queue", timeoutMs: 60_000 });
      writeFileSync(join(worktree, "prepare.mjs"), `${readFileSync(join(worktree, "prepare.mjs"), "utf8")}\nexport const CHEAT = ${index};\n`);
      git(worktree, ["commit", "-q", "-am", `tamper ${index}`]);
      tampered.push(git(worktree, ["rev-parse", "--short=7", "HEAD"]).trim());
      await pollUntil(() => readFileSync(join(org!.root, "state/results.tsv"), "utf8").includes(tampered.at(-1)!), { what: `a row for ${tampered.at(-1)}`, timeoutMs: 60_000 });
    }
    const rows = readFileSync(join(org.root, "state/results.tsv"), "utf8").split("\n").filter((line) => tampered.some((commit) => line.startsWith(commit)));
    expect(rows.map((line) => line.split("\t")[3])).toEqual(["reject", "reject", "reject"]);
    expect(countRows(org)).toBeGreaterThanOrEqual(5);
    downAndCheck(org);
  }, 300_000);
});
