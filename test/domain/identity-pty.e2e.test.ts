import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runOrg } from "../helpers/org-cli.js";
import { runInPane, snapshotActs } from "../helpers/pane-jobs.js";
import { removeDir } from "../helpers/temp-repo.js";
import { createTestOrg, jobsOrgYaml, teardownOrg, type TestOrg, upUntilRunning } from "../helpers/test-org/index.js";

// As test/domain/identity-tmux.e2e.test.ts, with node-pty panes under `org pty-host` (org up --no-tmux).
const orgYaml = (jobs: string) => jobsOrgYaml(jobs, { roles: { chief: "", junior: ", reports_to: chief" } });

let org: TestOrg;
let jobs: string;
let state: string;

describe("commands in a node-pty pane act as its agent", () => {
  beforeAll(async () => {
    jobs = mkdtempSync(join(tmpdir(), "org-jobs-"));
    org = createTestOrg({ yaml: orgYaml(jobs) });
    state = join(org.dir, "state");
    await upUntilRunning(org, ["chief-1", "junior-1"], ["--no-tmux"]);
  }, 90_000);

  afterAll(() => {
    teardownOrg(org);
    removeDir(jobs);
  });

  test("a junior claiming to be its chief is refused and nothing changes; "
    + "the chief in its own pane sends", async () => {
    const before = snapshotActs(state);
    expect(await runInPane(jobs, "junior-1", "ORG_AGENT=chief-1 org task junior-1 'no more work'")).toEqual({
      code: 1,
      stdout: "",
      stderr: "org: you are junior-1 (this pane's agent); ORG_AGENT=chief-1 names another agent — unset it\n",
    });
    expect(snapshotActs(state)).toEqual(before);
    const task = await runInPane(jobs, "chief-1", "env -u ORG_AGENT org task junior-1 'make the loss go down'");
    expect(task.stderr).toBe("");
    expect(runOrg(["inbox", "--agent", "junior-1"], { cwd: org.dir, env: { ORG_AGENT: "" } }).stdout).toContain(
      "from chief-1 · task",
    );
  }, 60_000);
});
