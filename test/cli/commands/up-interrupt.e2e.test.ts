import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { runOrg } from "../../helpers/org-cli.js";
import { expectDown, expectNothingLeft, LEFT_UP, ROLLED_BACK } from "../../helpers/interrupted-up.js";
import { createTestOrg, printerOrgYaml, teardownOrg, type TestOrg } from "../../helpers/test-org/index.js";

let org: TestOrg | undefined;
afterEach(() => {
  teardownOrg(org);
  org = undefined;
});

// ORG_TEST_INTERRUPT_AT makes `org up` signal itself as the named phase begins.
describe("org up interrupted at every phase", () => {
  test("before the grid is recorded it rolls back, after it the org is up; the next up starts either way", async () => {
    org = createTestOrg({ yaml: printerOrgYaml(2) });
    const { dir, socket } = org;
    for (const phase of ["check", "plan", "worktrees", "grid", "record", "keeper", "wait"]) {
      const signal = phase === "grid" ? "SIGTERM" : "SIGINT";
      const up = runOrg(["up", "--no-attach"], { cwd: dir, env: { ORG_TEST_INTERRUPT_AT: `${phase}:${signal}` } });
      expect([phase, up.code]).toEqual([phase, signal === "SIGTERM" ? 143 : 130]);
      if (["check", "plan", "worktrees", "grid"].includes(phase)) {
        expect(up.stderr).toMatch(new RegExp(`^org up interrupted by ${signal} while .+: ${ROLLED_BACK}$`, "m"));
        await expectNothingLeft(dir, socket);
        expect(existsSync(join(dir, "state/org.json"))).toBe(false);
      } else {
        expect(up.stderr).toContain(`org up interrupted by SIGINT ${LEFT_UP}`);
        expect(runOrg(["status"], { cwd: dir }).code).toBe(0);
        await expectDown(dir, socket);
      }
    }
    expect(runOrg(["up", "--no-attach"], { cwd: dir }).code).toBe(0);
    // Ctrl-C as down begins to stop the org: it finishes, then says so with the signal's status.
    const down = runOrg(["down"], { cwd: dir, env: { ORG_TEST_INTERRUPT_AT: "stop:SIGINT" } });
    const said = "org down: SIGINT arrived while stopping; finished first, nothing of the org is left running";
    expect([down.code, down.stderr.trim()]).toEqual([130, said]);
    expect(down.stdout).toMatch(/^stopped: 2 process groups and the tmux server$/m);
    await expectNothingLeft(dir, socket);
  }, 120_000);
});
