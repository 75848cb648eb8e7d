// `npm test`'s share of `npm run faults`: one fault of each kind on one small demo org, then the same invariants.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { bin } from "./helpers/org-fixture.js";
import { pollUntil } from "./helpers/poll.js";
import { createRng } from "./fuzz/rng.js";
import { downAndFindProblems, findLeftovers } from "./faults/collect.js";
import { countRows, createDemoOrg, removeDemoOrg, startDemo, waitForRows, type DemoOrg } from "./faults/demo-org.js";
import { countRecoveredRows, killDaemonAt } from "./faults/kill-daemon.js";
import { commitTamper, statusesOf } from "./faults/tamper.js";

let org: DemoOrg | undefined;
afterEach(() => {
  if (org) removeDemoOrg(org);
  org = undefined;
});

describe("faults, the fast subset: nothing is lost", { tags: ["slow"] }, () => {
  test("kill -9 of the daemon right after a row and during a run, a stale index.lock and a tampered commit", async () => {
    org = createDemoOrg({ extraRoles: { tamperer: `{ command: ["${bin("forever")}"] }` } });
    startDemo(org);
    await waitForRows(org, 3);
    const rng = createRng(1);
    // Until one kill lands between a row and the clearing of its request (nearly always the first).
    for (let tries = 0; tries < 4 && !(await killDaemonAt(org, "after-row", rng)).rowPending; tries++);
    await killDaemonAt(org, "verify-run", rng);
    writeFileSync(join(org.repo, ".git/index.lock"), "");
    const tampered = commitTamper(org, "tamperer-1", "fast");
    await pollUntil(() => statusesOf(org!, [tampered]).length > 0, { what: `a row for ${tampered}`, timeoutMs: 60_000 });
    expect(statusesOf(org, [tampered])).toEqual(["reject"]);
    await waitForRows(org, 1);
    // The next daemon answered that request from its row instead of running it again.
    expect(countRecoveredRows(org)).toBeGreaterThanOrEqual(1);
    expect(downAndFindProblems(org.root)).toEqual([]);
  }, 120_000);

  test("a verify command that hangs and forks children is killed as a group at its timeout, no orphans", async () => {
    org = createDemoOrg({ count: 1, runtime: `{ command: ["${bin("forever")}"] }`, verifyCommand: [bin("hang-fork")], timeout: "2s" });
    startDemo(org);
    await pollUntil(() => countRows(org!) > 0, { what: "the hung baseline's row", timeoutMs: 60_000 });
    expect(readFileSync(join(org.root, "state/results.tsv"), "utf8")).toContain("\tcrash\tbaseline\t");
    await pollUntil(() => findLeftovers(org!.root, "none").every((line) => !line.includes("sleep 3600")), { what: "no hang-fork child left", timeoutMs: 10_000 });
    expect(downAndFindProblems(org.root)).toEqual([]);
  }, 60_000);
});
