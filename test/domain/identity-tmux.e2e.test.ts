import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runOrg, type CliResult } from "../helpers/org-cli.js";
import { runInPane, snapshotActs } from "../helpers/pane-jobs.js";
import { removeDir } from "../helpers/temp-repo.js";
import { createTestOrg, jobsOrgYaml, teardownOrg, type TestOrg, upUntilRunning } from "../helpers/test-org/index.js";

// Agents whose tool calls are shell jobs run inside their real tmux panes: each `org` command there is a pane's.
const orgYaml = (jobs: string) => jobsOrgYaml(jobs, {
  roles: { planner: "", generator: ", reports_to: planner", evaluator: ", reports_to: planner" },
  rest: "contracts: { generator: generator, evaluator: evaluator, min_assertions: 2 }\n",
  read: ["worktrees"],
});

// A pid namespace between the pane and the command, as a sandbox may put there; the host's /proc stays. Made in the
// pane's sandbox, where root cannot: without CAP_SETFCAP it
// maps no uid 0 into a user namespace of its own (Linux 5.12).
const SANDBOX = ["--unshare-user", "--cap-drop", "ALL", "--ro-bind", "/", "/", "--dev-bind", "/dev", "/dev"];
const CAN_UNSHARE = spawnSync("bwrap", [...SANDBOX, "unshare", "-Urpf", "true"]).status === 0;

let org: TestOrg;
let jobs: string;
let state: string;
const inPane = (agent: string, script: string) => runInPane(jobs, agent, script);
const person = (args: string[], agent = "") => runOrg(args, { cwd: org.dir, env: { ORG_AGENT: agent } });
const refusal = (pane: string, claimed: string) => ({
  code: 1,
  stdout: "",
  stderr: `org: you are ${pane} (this pane's agent); ORG_AGENT=${claimed} names another agent — unset it\n`,
});
const delivered = (result: CliResult) => /^delivered (\S+) /.exec(result.stdout)?.[1];

async function expectRefused(pane: string, script: string, claimed: string): Promise<void> {
  const before = snapshotActs(state);
  expect(await inPane(pane, script)).toEqual(refusal(pane, claimed));
  expect(snapshotActs(state)).toEqual(before);
}

describe("commands act as the agent whose pane runs them", () => {
  beforeAll(async () => {
    jobs = mkdtempSync(join(tmpdir(), "org-jobs-"));
    org = createTestOrg({ yaml: orgYaml(jobs) });
    state = join(org.dir, "state");
    await upUntilRunning(org, ["planner-1", "generator-1", "evaluator-1"]);
  }, 90_000);

  afterAll(() => {
    teardownOrg(org);
    removeDir(jobs);
  });

  test("a pane's agent claiming another by ORG_AGENT cannot send, set a task, "
    + "sign or review; nothing changes", async () => {
    await expectRefused(
      "generator-1",
      "ORG_AGENT=evaluator-1 org send planner-1 'from the evaluator, honest'",
      "evaluator-1",
    );
    await expectRefused("generator-1", "ORG_AGENT=planner-1 org task generator-1 'take a week off'", "planner-1");
    writeFileSync(join(org.dir, "contract.md"), "- [ ] loss goes down\n- [ ] no test fails\n");
    const drafted = await inPane("generator-1", `org contract draft -f ${join(org.dir, "contract.md")}`);
    expect(drafted.code, drafted.stderr).toBe(0);
    await expectRefused("generator-1", "ORG_AGENT=evaluator-1 org contract sign", "evaluator-1");
    writeFileSync(join(org.dir, "review.md"), "- [x] loss goes down — see run 1\n- [x] no test fails — see CI\n");
    await expectRefused(
      "generator-1",
      `ORG_AGENT=evaluator-1 org review -f ${join(org.dir, "review.md")}`,
      "evaluator-1",
    );
  }, 120_000);

  test("nor acknowledge another's message, by ORG_AGENT or by --agent", async () => {
    const id = delivered(await inPane("planner-1", "org send evaluator-1 'check the contract'"))!;
    expect(id).toBeDefined();
    await expectRefused("generator-1", `ORG_AGENT=evaluator-1 org inbox --read ${id}`, "evaluator-1");
    const before = snapshotActs(state);
    expect(await inPane("generator-1", `org inbox --agent evaluator-1 --read ${id}`)).toEqual({
      code: 1,
      stdout: "",
      stderr: "org: generator-1 reads only its own inbox; --agent evaluator-1 names another agent — drop --agent\n",
    });
    expect(snapshotActs(state)).toEqual(before);
    expect(await inPane("evaluator-1", `org inbox --read ${id}`)).toEqual({
      code: 0,
      stdout: `marked read: ${id}\n`,
      stderr: "",
    });
  }, 120_000);

  test("the genuine agent acts from its pane, with ORG_AGENT as org set it or unset", async () => {
    const signed = await inPane("evaluator-1", "org contract sign");
    expect(signed.code, signed.stderr).toBe(0);
    const sent = await inPane("generator-1", "env -u ORG_AGENT org send planner-1 'sprint 1 is drafted'");
    expect(sent.stderr).toBe("");
    const listed = person(["inbox", "--agent", "planner-1"]);
    expect(listed.stdout).toContain(`## ${delivered(sent)} · from generator-1 · note`);
    const task = await inPane("planner-1", "org task generator-1 'make the loss go down'");
    expect(task.stderr).toBe("");
    expect(person(["inbox", "--agent", "generator-1"]).stdout).toContain("from planner-1 · task");
  }, 120_000);

  test("nor submit from another agent's worktree; nothing is staged or committed", async () => {
    const theirs = join(org.dir, "worktrees", "evaluator-1");
    writeFileSync(join(theirs, "idea.txt"), "not mine\n");
    const git = (...args: string[]) => execFileSync("git", ["-C", theirs, ...args], { encoding: "utf8" });
    const head = git("rev-parse", "HEAD");
    expect(await inPane("generator-1", `cd ${theirs} && org submit -m 'their idea'`)).toEqual({
      code: 1, stdout: "",
      stderr: `org: you are generator-1, but ${theirs} is evaluator-1's worktree — submit from your own, `
        + `${join(org.dir, "worktrees", "generator-1")} (nothing was committed)\n`,
    });
    expect([git("rev-parse", "HEAD"), git("status", "--porcelain")]).toEqual([head, "?? idea.txt\n"]);
  }, 60_000);

  test("a person outside every pane acts as the person, or as the agent ORG_AGENT names", () => {
    const asPerson = person(["send", "planner-1", "from a person"]);
    expect(asPerson.stderr).toBe("");
    const asEvaluator = person(["send", "planner-1", "from the evaluator's owner"], "evaluator-1");
    expect(asEvaluator.stderr).toBe("");
    const listed = person(["inbox", "--agent", "planner-1"]).stdout;
    expect(listed).toContain(`## ${delivered(asPerson)} · from person · note`);
    expect(listed).toContain(`## ${delivered(asEvaluator)} · from evaluator-1 · note`);
  });

  test.skipIf(!CAN_UNSHARE)("a pid namespace between the pane and the command hides nothing", async () => {
    await expectRefused(
      "generator-1",
      "unshare -Urpf sh -c 'ORG_AGENT=evaluator-1 org send planner-1 sneaky'",
      "evaluator-1",
    );
    const sent = await inPane("generator-1", "unshare -Urpf org send planner-1 'through a sandbox'");
    expect(sent.stderr).toBe("");
    expect(person(["inbox", "--agent", "planner-1"]).stdout).toContain(
      `## ${delivered(sent)} · from generator-1 · note`,
    );
  }, 60_000);
});
