// `npm test`'s share of `npm run faults`: one fault of each kind on one small demo org, then the same invariants.
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { pollUntil } from "../helpers/poll.js";
import { killDaemonAndKeepers } from "../helpers/keepers.js";
import { isRunning } from "../helpers/processes.js";
import { removeDir } from "../helpers/temp-repo.js";
import { createRng } from "../fuzz/rng.js";
import { downAndFindProblems, findLeftovers } from "../faults/collect.js";
import { countRows, readDaemonPid, removeDemoOrg, startDemo, waitForRows } from "../faults/demo-org.js";
import { countRowsOf, killDaemonAt, listQueued, type PendingRow } from "../faults/kill-daemon.js";
import { readProcTable, sampleOrg } from "../faults/proc-table.js";
import { commitTamper, statusesOf } from "../faults/tamper.js";
import { bin, createTestOrg, describeOrgProcesses, type DemoOrg } from "../helpers/test-org/index.js";
import { runOrg } from "../helpers/org-cli.js";

let org: DemoOrg | undefined;
let marks: string | undefined;

/** Whether a verify run whose bash tested `marker` sleeps on it now. */
function isRunAsleep(marker: string): boolean {
  const table = readProcTable();
  const byPid = new Map(table.map((fact) => [fact.pid, fact]));
  return table.some((fact) => fact.cmdline === "sleep 20" && byPid.get(fact.ppid)?.cmdline.includes(marker));
}

afterEach(() => {
  if (org) removeDemoOrg(org);
  if (marks) removeDir(marks);
  org = undefined;
  marks = undefined;
});

describe("faults, the fast subset: nothing is lost", () => {
  test("kill -9 of the daemon right after a row and during a run, " +
    "a stale index.lock and a tampered commit", async () => {
    // While the marker exists a run takes 20 s more: the run a killed daemon leaves would outlive the next daemon's
    // start. In HOME, which verify runs see read-only: their sandbox has a /tmp of its own.
    marks = realpathSync(mkdtempSync(join(homedir(), "org-slow-")));
    const slow = join(marks, "slow");
    org = createTestOrg({
      demo: {
        extraRoles: { tamperer: `{ command: ["${bin("forever")}"] }` },
        verifyCommand: ["bash", "-c", `if [ -e ${slow} ]; then sleep 20; fi; exec node train.mjs`],
      },
    });
    startDemo(org);
    await waitForRows(org, 3);
    const rng = createRng(1);
    // Until one kill lands between a row and the clearing of its request (nearly always the first).
    const sampler = sampleOrg(org.dir, 2);
    // The daemon clears a request a few milliseconds after its row: a kill from the watch may come too late.
    let pending: PendingRow | undefined;
    for (let tries = 0; tries < 8 && !pending; tries++) pending = (await killDaemonAt(org, "after-row", rng)).pending;
    expect(pending, "no kill in 8 landed between a row and the clearing of its request").toBeDefined();
    writeFileSync(slow, "");
    // A run begun before the marker may end before the next daemon looks, leaving it nothing to end: the kill waits
    // for one asleep on the marker (its bash names the marker).
    await pollUntil(() => isRunAsleep(slow), {
      what: "a verify run asleep on the marker", timeoutMs: 60_000,
    });
    // Until the kill lands inside a run.
    let duringRun = await killDaemonAt(org, "verify-run", rng);
    for (let tries = 0; tries < 3 && !duringRun.inRun; tries++) duringRun = await killDaemonAt(org, "verify-run", rng);
    rmSync(slow);
    expect(duringRun.inRun).toBe(true);
    // The run the killed daemon left is ended before the next one starts in its slot; its waiter goes too.
    expect(duringRun.left).toEqual([]);
    // The daemon says so once it has ended them all: a moment after the last is gone.
    const recovered = /recover \| the daemon ended \d+ process(es)? a killed daemon left\n- verify run /;
    await pollUntil(() => recovered.test(readFileSync(join(org!.dir, "state/log.md"), "utf8")), {
      what: "the recover line in log.md",
    });
    writeFileSync(join(org.repo, ".git/index.lock"), "");
    const tampered = commitTamper(org, "tamperer-1", "fast");
    await pollUntil(() => statusesOf(org!, [tampered]).length > 0, {
      what: `a row for ${tampered}`,
      timeoutMs: 60_000,
    });
    expect(statusesOf(org, [tampered])).toEqual(["reject"]);
    await waitForRows(org, 1);
    // The next daemon answered that request from its row (or, where the ledger answered it first, from the ledger
    // again), never running it twice: it leaves the queue (in its turn, maybe after the tampered one), and its
    // commit has the one row.
    await pollUntil(() => !listQueued(org!).some(({ id }) => id === pending!.id), {
      what: `request ${pending!.id} to leave the queue`,
      // A kill between the daemon's ref lock and its rename leaves the lock: it is taken over once stale (10 s).
      timeoutMs: 30_000,
      explain: () => [
        readFileSync(join(org!.dir, "state/log.md"), "utf8"), runOrg(["status"], { cwd: org!.dir }).stdout,
        `-- queue: ${JSON.stringify(listQueued(org!))}`,
        `-- results.tsv, its end:\n${readFileSync(join(org!.dir, "state/results.tsv"), "utf8").slice(-1500)}`,
        describeOrgProcesses(org!),
      ].join("\n"),
    });
    expect(countRowsOf(org, pending!), readFileSync(join(org.dir, "state/results.tsv"), "utf8")).toBe(1);
    // Daemons killed mid-write leave nothing the journal calls tampering.
    expect(readFileSync(join(org.dir, "state/log.md"), "utf8")).not.toMatch(/^## \[[^\]]+\] tamper \|/m);
    const sampled = sampler.stop();
    expect(sampled.doubled).toEqual([]);
    expect(sampled.overCap).toEqual([]);
    expect(downAndFindProblems(org.dir)).toEqual([]);
  }, 120_000);

  test("a verify command that hangs and forks children is killed as a group at its timeout, no orphans", async () => {
    org = createTestOrg({
      demo: {
        count: 1,
        runtime: `{ command: ["${bin("forever")}"] }`,
        verifyCommand: [bin("hang-fork")],
        timeout: "2s",
      },
    });
    startDemo(org);
    await pollUntil(() => countRows(org!) > 0, { what: "the hung baseline's row", timeoutMs: 60_000 });
    expect(readFileSync(join(org.dir, "state/results.tsv"), "utf8")).toContain("\tcrash\tbaseline\t");
    await pollUntil(() => findLeftovers(org!.dir, "none").every((line) => !line.includes("sleep 3600")), {
      what: "no hang-fork child left",
      timeoutMs: 10_000,
    });
    expect(downAndFindProblems(org.dir)).toEqual([]);
  }, 60_000);

  test("a daemon and its keeper killed during a run, then org down: " +
    "the run's whole process group is ended and logged", async () => {
    org = createTestOrg({
      demo: {
        count: 1,
        runtime: `{ command: ["${bin("forever")}"] }`,
        verifyCommand: [bin("hang-fork")],
        timeout: "5m",
      },
    });
    startDemo(org);
    await pollUntil(() => findLeftovers(org!.dir, "none").some((line) => line.includes("sleep 3600")), {
      what: "the hanging baseline's child",
      timeoutMs: 60_000,
    });
    const daemon = await pollUntil(() => readDaemonPid(org!), { what: "daemon.json" });
    // The keeper too: alone, the daemon would be back in a second and end the run itself.
    await pollUntil(() => existsSync(join(org!.dir, "state/keeper.lock")), { what: "the keeper" });
    killDaemonAndKeepers(org.dir, daemon);
    await pollUntil(() => !isRunning(daemon), { what: "the daemon gone" });
    expect(downAndFindProblems(org.dir)).toEqual([]);
    expect(readFileSync(join(org.dir, "state/log.md"), "utf8")).toMatch(
      new RegExp(
        /ended, left by a killed daemon: verify run .*-researcher-1-baseline in cpu0 \(pid \d+ and its /.source +
        /process group, left by daemon \d+\)/.source,
      ),
    );
  }, 60_000);
});
