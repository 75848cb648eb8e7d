// `npm run soak`: 16 built-in researchers for ORG_SOAK_MINUTES (15) under random faults, then the faults invariants.
// Writes bench/out/soak.json and exits 1 if anything was lost, doubled, corrupted or left running.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runOrgAsync, PACKAGE_ROOT } from "../helpers/org-cli.js";
import { pollUntil } from "../helpers/poll.js";
import { removeDir } from "../helpers/temp-repo.js";
import { createRng } from "../fuzz/rng.js";
import { collectFacts } from "./collect.js";
import { countRows, startDemo, waitForRows } from "./demo-org.js";
import { checkInvariants, findLostExperiments } from "./invariants.js";
import { countRecoveredRows, killDaemonAt, KILL_MOMENTS } from "./kill-daemon.js";
import { sampleOrg } from "./proc-table.js";
import { findUnreadable } from "./state-files.js";
import { commitTamper, statusesOf } from "./tamper.js";
import { bin, createTestOrg, type DemoOrg, tmux } from "../helpers/test-org/index.js";

const MINUTES = Number(process.env.ORG_SOAK_MINUTES ?? 15);
const AGENTS = Number(process.env.ORG_SOAK_AGENTS ?? 16);
const SEED = Number(process.env.ORG_SOAK_SEED ?? Date.now() % 100_000);
const rng = createRng(SEED);
// The tamperer runs `forever`: only the soak commits in its worktree, so every tampered commit is ours alone.
const TAMPERER = "tamperer-1";

const moments = Object.fromEntries(KILL_MOMENTS.map((moment) => [moment, 0])) as Record<
  (typeof KILL_MOMENTS)[number],
  number
>;
// What a killed daemon left running one second after the next one started: must stay empty.
const leftByKilledDaemons: string[] = [];

type Fault = "daemon-kill" | "pane-kill" | "server-kill" | "index-lock" | "tamper";
const FAULTS: Fault[] = ["daemon-kill", "pane-kill", "server-kill", "index-lock", "tamper"];

async function up(org: DemoOrg): Promise<void> {
  const result = await runOrgAsync(["up", "--no-attach"], { cwd: org.dir, timeoutMs: 120_000 });
  if (result.code !== 0) throw new Error(`org up failed (${result.code}): ${result.stderr}`);
}

/** One fault of `kind`, and what it takes for the org to be whole again; returns a note for the log. */
async function inject(org: DemoOrg, kind: Fault, tampered: string[]): Promise<string> {
  if (kind === "daemon-kill") {
    const moment = rng.pick(KILL_MOMENTS);
    leftByKilledDaemons.push(...(await killDaemonAt(org, moment, rng)).left);
    moments[moment] += 1;
    return moment;
  }
  if (kind === "pane-kill") {
    const panes = tmux(org.socket, ["list-panes", "-s", "-F", "#{pane_id} #{@org_agent}"])
      .out.split("\n")
      .filter((line) => /^%\d+ researcher-\d+$/.test(line));
    const [pane, agent] = rng.pick(panes).split(" ");
    tmux(org.socket, ["kill-pane", "-t", pane!]);
    await up(org);
    await pollUntil(
      () =>
        tmux(org.socket, ["list-panes", "-s", "-F", "#{@org_agent} #{pane_dead}"])
          .out.split("\n")
          .includes(`${agent} 0`),
      { what: `${agent}'s pane back`, timeoutMs: 60_000 },
    );
    return agent!;
  }
  if (kind === "server-kill") {
    tmux(org.socket, ["kill-server"]);
    await up(org);
    return "";
  }
  if (kind === "index-lock") {
    // A git that crashed in the research repo leaves this behind; nobody removes it until the soak ends.
    writeFileSync(join(org.repo, ".git/index.lock"), "");
    return "";
  }
  // Sixteen researchers keep the verifier busy: a tampered commit
  // may wait minutes in the queue, so none is piled on top.
  if (tampered.length && statusesOf(org, [tampered.at(-1)!]).length === 0)
    return "skipped: the last tampered commit still waits for its verdict";
  tampered.push(commitTamper(org, TAMPERER, String(tampered.length)));
  return tampered.at(-1)!;
}

async function soak(): Promise<number> {
  const org = createTestOrg({
    demo: { count: AGENTS, extraRoles: { tamperer: `{ command: ["${bin("forever")}"] }` } },
  });
  const started = Date.now();
  const faults = Object.fromEntries(FAULTS.map((kind) => [kind, 0])) as Record<Fault, number>;
  const tampered: string[] = [];
  let error: string | undefined;
  const sampler = sampleOrg(org.dir, 2, 250);
  try {
    startDemo(org);
    await waitForRows(org, AGENTS + 1, 300_000);
    const deadline = started + MINUTES * 60_000;
    while (Date.now() < deadline) {
      const kind = rng.pick(FAULTS);
      const note = await inject(org, kind, tampered);
      if (!note.startsWith("skipped")) faults[kind] += 1;
      console.log(`${((Date.now() - started) / 1000).toFixed(0)}s ${kind} ${note} (rows ${countRows(org)})`);
      // The org must be making progress again before the next fault.
      await waitForRows(org, 1, 180_000);
      await new Promise((resolve) => setTimeout(resolve, rng.int(0, 10_000)));
    }
    // The last tampered commit gets its verdict before the count; behind a long queue that can take a while.
    if (tampered.length)
      await pollUntil(() => statusesOf(org, [tampered.at(-1)!]).length > 0, {
        what: "the last tampered commit judged",
        timeoutMs: 600_000,
      });
  } catch (caught) {
    error = (caught as Error).message;
  }
  const sampled = sampler.stop();
  const down = await runOrgAsync(["down"], { cwd: org.dir, timeoutMs: 120_000 });
  const facts = collectFacts(org.dir);
  const problems = [...(down.code === 0 ? [] : [`org down failed: ${down.stderr}`]), ...checkInvariants(facts)];
  const unreadable = findUnreadable(join(org.dir, "state"));
  const tamperStatuses = statusesOf(org, tampered);
  const report = {
    minutes: Number(((Date.now() - started) / 60_000).toFixed(1)), agents: AGENTS, seed: SEED,
    experiments: facts.rows.length, verdicts: facts.verdicts.length, queuedAtEnd: facts.queued.length,
    faults, daemonKillMoments: moments, faultsTotal: Object.values(faults).reduce((sum, count) => sum + count, 0),
    answeredFromKilledDaemonsRow: countRecoveredRows(org),
    slotSamples: sampled.samples, slotsDoubled: sampled.doubled, queueOverCap: sampled.overCap,
    leftOneSecondAfterUp: leftByKilledDaemons,
    rowsLost: findLostExperiments(facts).length,
    tamperedCommits: tampered.length,
    tamperedAccepted: tamperStatuses.filter((status) => status !== "reject").length,
    tamperedJudged: tamperStatuses.length,
    invariantProblems: problems, unreadableFiles: unreadable, error: error ?? null,
  };
  mkdirSync(join(PACKAGE_ROOT, "bench/out"), { recursive: true });
  writeFileSync(join(PACKAGE_ROOT, "bench/out/soak.json"), `${JSON.stringify(report, null, 2)}\n`);
  console.log(JSON.stringify(report, null, 2));
  tmux(org.socket, ["kill-server"]);
  if (process.env.ORG_SOAK_KEEP) console.log(`kept ${org.dir}`);
  else removeDir(org.dir);
  return error ||
    problems.length ||
    unreadable.length ||
    report.tamperedAccepted ||
    sampled.doubled.length ||
    sampled.overCap.length ||
    leftByKilledDaemons.length
    ? 1
    : 0;
}

process.exitCode = await soak();
