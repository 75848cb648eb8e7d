import { afterEach, describe, expect, test } from "vitest";
import { runOrg, runOrgAsync } from "../../helpers/org-cli.js";
import { createTestOrg, idleOrgYaml, teardownOrg, type TestOrg } from "../../helpers/test-org/index.js";

// One idle researcher; verify.sh prints `loss: 1.339393`, and the metric pattern is the test's to choose.
const orgYaml = (pattern: string) => idleOrgYaml("", `verify:
  command: [sh, verify.sh]
  metric: { name: loss, pattern: '${pattern}' }
  repeats: 1
`);
const VERIFY = { "verify.sh": "#!/bin/sh\necho \"loss: 1.339393\"\n" };

describe("org up --wait", () => {
  let org: TestOrg | undefined;
  afterEach(() => {
    teardownOrg(org);
    org = undefined;
  });

  test("a baseline that measures: exit 0, and status shows the verifier's queue and the baselines", async () => {
    org = createTestOrg({ yaml: orgYaml("^loss:\\s*([0-9.]+)"), files: VERIFY });
    const up = await runOrgAsync(["up", "--no-attach", "--wait"], { cwd: org.dir, timeoutMs: 40_000 });
    expect(up.code, up.stderr).toBe(0);
    expect(up.stdout).toContain("baselines 1/1: the base measures\n");
    expect(runOrg(["status"], { cwd: org.dir }).stdout).toContain("\nverifier: 0 running, 0 queued · baselines 1/1\n");
  }, 60_000);

  test("a pattern that never matches: exit 1 with the reason and the run log, and status names the crash", async () => {
    org = createTestOrg({ yaml: orgYaml("^val_bpb:\\s*([0-9.]+)"), files: VERIFY });
    const up = await runOrgAsync(["up", "--no-attach", "--wait"], { cwd: org.dir, timeoutMs: 40_000 });
    expect(up.code).toBe(1);
    const crash = new RegExp(
      /^baseline crashed \(researcher-1\): crash: no line matched \/\^val_bpb:\\s\*\(\[0-9\.\]\+\)\/; /.source +
      /exit code 0 — run log: state\/runs\/\S+-researcher-1-baseline\.log$/.source,
      "m",
    );
    expect(up.stderr).toContain(
      "every baseline crashed (1/1), so no experiment can run — fix the verify command or " +
        "verify.metric.pattern (`org validate`), then `org down && org up`\n",
    );
    expect(up.stderr).toMatch(crash);
    const status = runOrg(["status"], { cwd: org.dir }).stdout;
    expect(status).toContain("\nverifier: 0 running, 0 queued · baselines 0/1, 1 crashed\n");
    expect(status).toMatch(crash);
    // No experiment yet: results says what the verifier is doing, and why the base is broken.
    const results = runOrg(["results"], { cwd: org.dir }).stdout;
    expect(results).toContain("\n0 experiments ran (baselines left out)\n");
    expect(results).toContain("\nverifier: 0 running, 0 queued · baselines 0/1, 1 crashed\n");
    expect(results).toMatch(crash);
  }, 60_000);
});
