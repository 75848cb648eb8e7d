// Agents in a bubblewrap sandbox: a real org, real tmux and git, a scripted agent trying every write that matters.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { ExperimentRequest } from "../../../src/domain/experiments/request.js";
import { FIXTURES, runOrg } from "../../helpers/org-cli.js";
import { pollUntil } from "../../helpers/poll.js";
import { git } from "../../helpers/temp-repo.js";
import { bin, createTestOrg, teardownOrg, type TestOrg } from "../../helpers/test-org/index.js";

const bwrapWorks = spawnSync("bwrap", ["--dev-bind", "/", "/", "true"]).status === 0;

// a-1 probes its sandbox (or, unsandboxed, only idles: it would write every file it tries); b-1 idles.
const orgYaml = (a: "probe" | "idle", sandbox = "") => (name: string) => `name: ${name}
gpus: none
runtimes:
  probe: { command: ["${bin("sandbox-probe")}", b-1] }
  idle: { command: ["${bin("forever")}"] }
roles:
  a: { prompt: prompts/researcher.md, runtime: ${a}, talks_to: [b] }
  b: { prompt: prompts/researcher.md, runtime: idle }
${sandbox}`;

let org: TestOrg | undefined;
afterEach(() => {
  teardownOrg(org);
  org = undefined;
});

describe("the agents' sandbox", () => {
  test.skipIf(!bwrapWorks)("an agent writes its worktree, branch, home and progress, submits and sends; "
    + "results, its launch spec, pane log and inbox, another agent's worktree and inbox, .git's config, "
    + "hooks and best stay as they were", async () => {
    org = createTestOrg({ yaml: orgYaml("probe"), files: { "value.txt": "1\n" } });
    const { dir, name } = org;
    const state = join(dir, "state");
    const config = readFileSync(join(dir, ".git", "config"), "utf8");
    const up = runOrg(["up", "--no-attach"], { cwd: dir });
    expect(up.stderr).not.toContain("WITHOUT a sandbox");
    expect(up.code).toBe(0);
    const log = join(state, "agents", "a-1", "own", "probe.log");
    await pollUntil(() => existsSync(log) && readFileSync(log, "utf8").includes("== done"), {
      timeoutMs: 30_000,
      what: "the probe to finish",
      explain: () => (existsSync(log) ? readFileSync(log, "utf8") : "no probe.log"),
    });
    const common = join(dir, ".git");
    expect(readFileSync(log, "utf8").split("\n")).toEqual([
      "write worktree: ok",
      "commit: ok",
      "write home: ok",
      "write progress: ok",
      "submit: ok",
      "send: ok",
      `write results: sh: 1: cannot create ${state}/results.tsv: Read-only file system`,
      `make a worktree: sh: 1: cannot create ${dir}/worktrees/new: Read-only file system`,
      `write other worktree: sh: 1: cannot create ${dir}/worktrees/b-1/value.txt: Directory nonexistent`,
      `write own inbox: sh: 1: cannot create ${state}/agents/a-1/inbox/probe.txt: Read-only file system`,
      `write launch spec: sh: 1: cannot create ${state}/agents/a-1/launch.json: Read-only file system`,
      `link pane log: ln: failed to create symbolic link '${state}/agents/a-1/pane.log': Read-only file system`,
      `write other inbox: sh: 1: cannot create ${state}/agents/b-1/inbox/forged.md: Read-only file system`,
      `write git config: sh: 1: cannot create ${common}/config: Read-only file system`,
      `write git hook: sh: 1: cannot create ${common}/hooks/pre-commit: Read-only file system`,
      `write best: sh: 1: cannot create ${common}/refs/heads/org/${name}/best: Read-only file system`,
      `move best: fatal: update_ref failed for ref 'refs/heads/org/${name}/best': `
        + `cannot lock ref 'refs/heads/org/${name}/best': unable to create directory for `
        + `${common}/refs/frontier/${name}`,
      "org down: org: `org down` is not for agents: in the sandbox an agent runs org submit, wait, send, inbox, note, "
        + "task, contract, review, reload, claim, claims, tried, results, history, compare, status, logs, plan, "
        + "validate, help — ask a person for the rest",
      "== done",
      "",
    ]);
    // What it may write, written: its commit on its branch,
    // queued by the daemon as its own; its message in b-1's inbox.
    const head = git(dir, ["rev-parse", `org/${name}/a-1`]).trim();
    expect(git(dir, ["log", "-1", "--format=%s", head]).trim()).toBe("probe: halve it");
    const queued = readdirSync(join(state, "queue")).map((file) =>
      JSON.parse(readFileSync(join(state, "queue", file), "utf8")) as ExperimentRequest);
    expect(queued).toMatchObject([{ agent: "a-1", commit: head, description: "probe: halve it", kind: "candidate" }]);
    const inbox = join(state, "agents", "b-1", "inbox");
    const messages = readdirSync(inbox).filter((file) => file.endsWith(".md"));
    expect(messages).toHaveLength(1);
    expect(readFileSync(join(inbox, messages[0]!), "utf8")).toMatch(
      /^---\n[^]*from: a-1\n[^]*---\n\nhello from a-1\n$/,
    );
    expect(readFileSync(join(state, "agents", "a-1", "own", "progress.md"), "utf8")).toBe("- probed the sandbox\n");
    // What it may not, as it was.
    expect(existsSync(join(state, "results.tsv"))).toBe(false);
    expect(readFileSync(join(dir, "worktrees", "b-1", "value.txt"), "utf8")).toBe("1\n");
    expect(existsSync(join(dir, "worktrees", "new"))).toBe(false);
    expect(readFileSync(join(common, "config"), "utf8")).toBe(config);
    expect(existsSync(join(common, "hooks", "pre-commit"))).toBe(false);
    expect(readFileSync(join(common, "refs", "heads", "org", name, "best"), "utf8"))
      .toBe(`ref: refs/frontier/${name}\n`);
    expect(existsSync(join(common, "refs", "frontier", name))).toBe(false);
    expect(runOrg(["status"], { cwd: dir }).stdout).toMatch(/^b-1 +b +cpu +\d+ +running /m);
  });

  test("where bwrap cannot make a sandbox, org up warns and runs the agents unsandboxed; "
    + "with enabled: true it refuses; enabled: false is quiet", () => {
    const broken = { PATH: `${FIXTURES}/bwrap-broken:${process.env.PATH}` };
    org = createTestOrg({ yaml: orgYaml("idle") });
    const up = runOrg(["up", "--no-attach"], { cwd: org.dir, env: broken });
    expect(up.code).toBe(0);
    expect(up.stderr).toContain(`warning: agents run WITHOUT a sandbox: ${FIXTURES}/bwrap-broken/bwrap cannot make a `
      + `sandbox here (bwrap: No permissions to create new namespace, likely because the kernel does not allow `
      + `non-privileged user namespaces.), so each one may write every file of the org (results, `
      + `other agents' worktrees, the repo's .git) — allow unprivileged user namespaces (sysctl `
      + `kernel.unprivileged_userns_clone=1, or kernel.apparmor_restrict_unprivileged_userns=0 on Ubuntu 24.04), `
      + `or set sandbox: { enabled: false } in org.yaml to run them unsandboxed on purpose\n`);
    expect(existsSync(join(org.dir, "state", "sandbox"))).toBe(false);
    const doctor = runOrg(["doctor"], { cwd: org.dir, env: broken }).stdout.split("\n").find((line) =>
      line.startsWith("bwrap "));
    expect(doctor).toMatch(
      new RegExp(/^bwrap +warn +.*bwrap-broken\/bwrap cannot make a sandbox here \(bwrap: No permissions .*\): /.source
        + /agents run unsandboxed +allow unprivileged user namespaces/.source),
    );
    teardownOrg(org);

    org = createTestOrg({ yaml: orgYaml("idle", "sandbox: { enabled: true }\n") });
    const refused = runOrg(["up", "--no-attach"], { cwd: org.dir, env: broken });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      new RegExp(/^org: sandbox\.enabled is true in org\.yaml, but .*bwrap-broken\/bwrap cannot make a sandbox /.source
        + /here \(bwrap: No permissions .*\) — allow unprivileged user namespaces .*, or set sandbox: \{ /.source
        + /enabled: false \}\n$/.source),
    );
    expect(existsSync(join(org.dir, "worktrees"))).toBe(false);
    teardownOrg(org);

    org = createTestOrg({ yaml: orgYaml("idle", "sandbox: { enabled: false }\n") });
    const off = runOrg(["up", "--no-attach"], { cwd: org.dir, env: broken });
    expect(off.code).toBe(0);
    expect(off.stderr).not.toContain("sandbox");
    // Unsandboxed too, the agent's own folders are there: $ORG_PROGRESS lies in own/.
    for (const folder of ["home", "own", "proposal", "outbox"]) expect(
      statSync(join(org.dir, "state", "agents", "a-1", folder)).isDirectory(),
    ).toBe(true);
  });
});
