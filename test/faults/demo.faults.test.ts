import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { runOrg } from "../helpers/org-cli.js";
import { pollUntil } from "../helpers/poll.js";
import { git } from "../helpers/temp-repo.js";
import { createRng } from "../fuzz/rng.js";
import { downAndFindProblems, findLeftovers } from "./collect.js";
import { startCpuWindow } from "./cpu.js";
import {
  countRows, listAgentPanes, queueIsEmpty, readAgentPanes, readControlPane, readDaemonPid, removeDemoOrg, startDemo,
  waitForRows,
} from "./demo-org.js";
import { countRecoveredRows, killDaemonAt, KILL_MOMENTS } from "./kill-daemon.js";
import { sampleOrg } from "./proc-table.js";
import { commitTamper, statusesOf } from "./tamper.js";
import { bin, createTestOrg, type DemoOrg, tmux } from "../helpers/test-org/index.js";

// `npm run faults` runs the full counts; ORG_FAULTS_KILLS and ORG_FAULTS_SEED change them.
const KILLS = Number(process.env.ORG_FAULTS_KILLS ?? 20);
const rng = createRng(Number(process.env.ORG_FAULTS_SEED ?? 1));

let org: DemoOrg | undefined;
let mounted: string | undefined;
afterEach(() => {
  if (org) {
    runOrg(["down"], { cwd: org.dir });
    // Lazily: a process of the org still holding a file there must not keep the tmpfs (and the test) stuck.
    if (mounted) spawnSync("umount", ["-l", mounted]);
    removeDemoOrg(org);
  }
  org = undefined;
  mounted = undefined;
});

/** `org down`, then every invariant and state file; the org must be gone. */
function downAndCheck(current: DemoOrg): void {
  expect(downAndFindProblems(current.dir)).toEqual([]);
}

describe("faults on the demo org: nothing is lost", () => {
  test(`kill -9 of the daemon ${KILLS} times (at random, during a verify run, ` +
    `right after a row), each followed by org up`, async () => {
    // Runs 5 s longer than the demo's own, as a training would be:
    // a run the killed daemon left outlives the next one's start.
    org = createTestOrg({ demo: { verifyCommand: ["bash", "-c", "sleep 5; exec node train.mjs"] } });
    startDemo(org);
    await waitForRows(org, 2);
    let betweenRowAndReset = 0;
    const left: string[] = [];
    const sampler = sampleOrg(org.dir, 2);
    for (let kill = 0; kill < KILLS; kill++) {
      const killed = await killDaemonAt(org, KILL_MOMENTS[kill % KILL_MOMENTS.length]!, rng);
      if (killed.rowPending) betweenRowAndReset += 1;
      left.push(...killed.left);
    }
    await waitForRows(org, 2);
    const sampled = sampler.stop();
    console.log(
      `${KILLS} kills, ${betweenRowAndReset} between a row and its reset; rows ${countRows(org)}; ` +
        `answered from a killed daemon's row: ${countRecoveredRows(org)}; slot samples ${sampled.samples}, ` +
        `doubled ${sampled.doubled.length}; over the queue cap ${sampled.overCap.length}; left 1 s after org up: ` +
        `${left.length}`,
    );
    if (KILLS >= KILL_MOMENTS.length) expect(betweenRowAndReset).toBeGreaterThan(0);
    // A slot never holds a run next to one a killed daemon left,
    // and nothing of a dead daemon outlives the next one's start.
    expect(sampled.doubled).toEqual([]);
    expect(sampled.overCap).toEqual([]);
    expect(left).toEqual([]);
    downAndCheck(org);
  }, 900_000);

  test("the tmux server killed from outside: org up brings the org back and it goes on", async () => {
    org = createTestOrg({ demo: {} });
    startDemo(org);
    await waitForRows(org, 2);
    tmux(org.socket, ["kill-server"]);
    expect(runOrg(["up", "--no-attach"], { cwd: org.dir }).code).toBe(0);
    await waitForRows(org, 2);
    downAndCheck(org);
  }, 300_000);

  test("an agent pane closed by hand: the agent comes back, the others never stop", async () => {
    org = createTestOrg({ demo: {} });
    startDemo(org);
    await waitForRows(org, 2);
    const panes = tmux(org.socket, ["list-panes", "-s", "-F", "#{pane_id} #{@org_agent}"])
      .out.split("\n")
      .filter((line) => line.endsWith(" researcher-1"));
    expect(panes).toHaveLength(1);
    tmux(org.socket, ["kill-pane", "-t", panes[0]!.split(" ")[0]!]);
    const up = runOrg(["up", "--no-attach"], { cwd: org.dir });
    expect(up.code).toBe(0);
    expect(up.stdout).toContain("+ add researcher-1 (its pane is gone)");
    await pollUntil(
      () => tmux(org!.socket, ["list-panes", "-s", "-F", "#{@org_agent} #{pane_dead}"]).out.includes("researcher-1 0"),
      { what: "researcher-1's pane back", timeoutMs: 30_000 },
    );
    await waitForRows(org, 2);
    downAndCheck(org);
  }, 300_000);

  test("an agent that exits at once forever: backed off, " +
    "marked failed after max_restarts, the others go on, no CPU spin", async () => {
    org = createTestOrg({
      demo: {
        extraRoles: { crasher: `{ command: ["${bin("exit-now")}"] }` },
        supervisor: "{ backoff: 300ms, max_backoff: 2s, max_restarts: 5, healthy_after: 10s }",
      },
    });
    startDemo(org);
    const events = join(org.dir, "state/agents/crasher-1/events.jsonl");
    // From the first exit on, past the daemon's own start-up: what the crash loop costs.
    await pollUntil(() => existsSync(events) && readFileSync(events, "utf8").includes('"type":"exit"'), {
      what: "crasher-1's first exit",
      timeoutMs: 30_000,
    });
    const cpu = startCpuWindow(await pollUntil(() => readDaemonPid(org!), { what: "daemon.json" }));
    const status = join(org.dir, "state/agents/crasher-1/status.json");
    await pollUntil(
      () => existsSync(status) && (JSON.parse(readFileSync(status, "utf8")) as { state: string }).state === "failed",
      { what: "crasher-1 failed", timeoutMs: 60_000 },
    );
    // The researchers never noticed: their experiments keep landing after the crasher gave up.
    const researched = () =>
      readFileSync(join(org!.dir, "state/results.tsv"), "utf8")
        .split("\n")
        .filter((line) => /\tresearcher-\d+\t/.test(line) && !line.includes("\tbaseline\t")).length;
    const before = researched();
    await pollUntil(() => researched() >= before + 2, { what: "two more researcher rows", timeoutMs: 90_000 });
    const used = cpu();
    console.log(
      `crash loop: daemon used ${(used.share * 100).toFixed(1)}% of a core over ${used.seconds.toFixed(1)} s`,
    );
    expect(used.share).toBeLessThan(0.2);
    const exits = readFileSync(events, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { at: string; type: string; reason?: string })
      .filter((event) => event.type === "exit");
    expect(exits.map((event) => event.reason!.replace(/ in [\d.]+m?s$/, "").replace(/^.*; /, ""))).toEqual([
      "restart 1/5",
      "restart 2/5",
      "restart 3/5",
      "restart 4/5",
      "restart 5/5",
      "gave up after 5 restarts without a run lasting 10s",
    ]);
    // Backoff 300ms doubling to 2s: 0.3 + 0.6 + 1.2 + 2 + 2 s at least between the first exit and the last.
    expect(Date.parse(exits.at(-1)!.at) - Date.parse(exits[0]!.at)).toBeGreaterThanOrEqual(5500);
    downAndCheck(org);
  }, 300_000);

  test("a full disk under state: clear errors, no corrupted file, and the org goes on once space returns", async () => {
    org = createTestOrg({ demo: {} });
    const state = join(org.dir, "state");
    mkdirSync(state);
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=24m,mode=700", "tmpfs", state]);
    mounted = state;
    startDemo(org);
    await waitForRows(org, 2);
    const filler = join(state, "filler");
    // dd stops with "No space left on device": the disk is full. Topped up at every look after: what the org frees
    // (a cut run's log) is taken again, as by whatever filled the disk, so the daemon's heartbeat cannot fit either.
    const fill = () => spawnSync("dd", ["if=/dev/zero", `of=${filler}`, "bs=4k", "oflag=append", "conv=notrunc"], {
      encoding: "utf8",
    }).stderr;
    expect(fill()).toContain("No space left on device");
    const full = countRows(org);
    // The verifier meets the full disk too: it says so (a run cut
    // short, or the pause below sandbox.disk.floor) and keeps
    // the request queued instead of recording a false crash.
    await pollUntil(
      () => fill() && /verifier( paused)?: .*(no space left on|free on the disk of state)/i.test(readControlPane(org!)),
      { what: "the verifier saying the disk is full", timeoutMs: 60_000, intervalMs: 500 },
    );
    const status = runOrg(["status"], { cwd: org.dir });
    expect(`${status.stdout}${status.stderr}`).not.toMatch(/^\s+at /m);
    expect(`${status.stdout}${status.stderr}`).not.toMatch(/not running/);
    // Every agent's `org submit` names the full disk and what to do: one waiting on its verdict is told by the
    // daemon (it runs the command, as unsandboxed) that it runs but has no room; a new one, whose request the
    // sandbox's `org` cannot even write in its outbox, says so itself. Never silence, never "not running".
    const daemonSaid = /the org's daemon \(pid \d+\) is running but (cannot write its heartbeat|has no room to answer)/;
    const shimSaid = /this command could not be handed to the org's daemon/;
    const toldFull = (pane: string) => new RegExp(
      `no space left on the disk (mounted at|holding) .* free\\): (${daemonSaid.source}|${shimSaid.source})` +
      ".* — free some space there",
    ).test(pane);
    const listOutboxes = () => spawnSync("ls", ["-lR", join(state, "agents")], { encoding: "utf8" }).stdout;
    const explainFull = () =>
      `control pane:\n${readControlPane(org!)}\nagent panes:\n${readAgentPanes(org!)}\noutboxes:\n${listOutboxes()}`;
    await pollUntil(
      () => fill() && listAgentPanes(org!).every(toldFull),
      {
        what: "every agent's submit naming the full disk", timeoutMs: 90_000, intervalMs: 500,
        explain: explainFull,
      },
    );
    // Sandboxed (where bwrap works), the submit after it cannot even leave its request: the agent's `org` says so.
    if (existsSync(join(state, "sandbox"))) await pollUntil(
      () => fill() && listAgentPanes(org!).every((pane) => pane.split("\n").some((line) => toldFull(line)
        && shimSaid.test(line))),
      { what: "every sandboxed agent's next submit naming the full disk", timeoutMs: 30_000, intervalMs: 500,
        explain: explainFull },
    );
    const told = listAgentPanes(org).map((pane) => [...new Set(pane.split("\n").filter(toldFull))].join(" / "));
    console.log(`what each agent was told: ${told.join(" | ")}`);
    expect(readAgentPanes(org)).not.toMatch(/not running|went down/);
    // The daemon tells its own: its heartbeat does not fit.
    await pollUntil(
      () => fill() && /heartbeat: no space left on the disk mounted at .* free\): could not write /.test(
        readControlPane(org!),
      ),
      {
        what: "the daemon saying its heartbeat does not fit", timeoutMs: 30_000, intervalMs: 500,
        explain: explainFull,
      },
    );
    rmSync(filler);
    await waitForRows(org, 3, 120_000);
    expect(countRows(org)).toBeGreaterThan(full);
    expect(readControlPane(org)).not.toMatch(/^\s+at /m);
    downAndCheck(org);
  }, 300_000);

  test("a verify command that hangs and forks children is killed as a group, no orphans", async () => {
    org = createTestOrg({
      demo: {
        count: 1,
        runtime: `{ command: ["${bin("forever")}"] }`,
        verifyCommand: [bin("hang-fork")],
        timeout: "3s",
      },
    });
    startDemo(org);
    await pollUntil(
      () => countRows(org!) > 0 && readFileSync(join(org!.dir, "state/results.tsv"), "utf8").includes("\tcrash\t"),
      { what: "the hung baseline recorded as crash", timeoutMs: 60_000 },
    );
    await pollUntil(() => findLeftovers(org!.dir, "none").filter((line) => line.includes("sleep 3600")).length === 0, {
      what: "no hang-fork child left",
      timeoutMs: 10_000,
    });
    downAndCheck(org);
  }, 120_000);

  test("a stale .git/index.lock in the research repo: experiments go on", async () => {
    org = createTestOrg({ demo: {} });
    startDemo(org);
    await waitForRows(org, 1);
    writeFileSync(join(org.repo, ".git/index.lock"), "");
    await waitForRows(org, 3);
    downAndCheck(org);
  }, 300_000);

  test("a worktree deleted by hand: org up after org down recreates it from its branch", async () => {
    org = createTestOrg({ demo: {} });
    startDemo(org);
    await waitForRows(org, 2);
    expect(runOrg(["down"], { cwd: org.dir }).code).toBe(0);
    const head = git(org.repo, ["rev-parse", `org/${org.name}/researcher-1`]).trim();
    rmSync(join(org.dir, "worktrees/researcher-1"), { recursive: true, force: true });
    expect(runOrg(["up", "--no-attach"], { cwd: org.dir }).code).toBe(0);
    expect(existsSync(join(org.dir, "worktrees/researcher-1/train.mjs"))).toBe(true);
    expect(git(join(org.dir, "worktrees/researcher-1"), ["rev-parse", "HEAD"]).trim()).toBe(head);
    await waitForRows(org, 2);
    downAndCheck(org);
  }, 300_000);

  test("tampering: every commit touching a protected file is rejected", async () => {
    org = createTestOrg({ demo: { count: 2, runtime: `{ command: ["${bin("forever")}"] }` } });
    startDemo(org);
    await waitForRows(org, 2);
    const tampered: string[] = [];
    for (const [index, agent] of ["researcher-1", "researcher-2", "researcher-1"].entries()) {
      await pollUntil(() => queueIsEmpty(org!), { what: "an empty queue", timeoutMs: 60_000 });
      tampered.push(commitTamper(org, agent, String(index)));
      await pollUntil(() => statusesOf(org!, [tampered.at(-1)!]).length === 1, {
        what: `a row for ${tampered.at(-1)}`,
        timeoutMs: 60_000,
      });
    }
    expect(statusesOf(org, tampered)).toEqual(["reject", "reject", "reject"]);
    expect(countRows(org)).toBeGreaterThanOrEqual(5);
    downAndCheck(org);
  }, 300_000);
});
