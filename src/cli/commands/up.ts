import { readSnapshot } from "../../domain/views/status-snapshot.js";
import type { UpPhase } from "../../domain/lifecycle/up-org.js";
import { attachGrid, readUpVerifierView, startOrg, timeUpPhases, type Upped } from "../../flows/up/start-org.js";
import { renderStatus } from "../../ui/status-table.js";
import { describeCrashedBaselines, formatVerifierLine } from "../../ui/verifier-line.js";
import type { Io } from "../io.js";
import { catchInterrupts, type Interrupts } from "../interrupt.js";
import { startProgress, type Progress } from "../progress.js";
import { waitForBaselines } from "../up-wait.js";
import { printOutcome } from "../shared.js";

type UpOpts = { root: string; attach: boolean; tmux?: boolean; resume?: boolean; ab?: string; wait?: boolean };

const PHASES: Record<UpPhase, string> = {
  check: "checking org.yaml and the programs",
  plan: "planning leases",
  worktrees: "preparing worktrees",
  grid: "starting the grid",
  record: "recording the org",
  keeper: "starting the keeper",
  wait: "waiting for the agents to start",
};

/** What `org up` has done so far, for the line an interrupt prints. */
interface UpRun {
  interrupts: Interrupts;
  progress: Progress;
  phase: UpPhase;
  /** Set once org.json is written: from then on an interrupt leaves the org up. */
  recorded: boolean;
  enter(phase: UpPhase): Promise<void>;
}

/**
 * `org up`: plan, worktrees, leases, the grid; attach when a person is at a terminal. `tmux: false` runs the grid in
 * node-pty. An org whose stop condition holds is refused, unless `resume` goes on past it. SIGINT or SIGTERM before
 * org.json is written rolls back what was started; after, the org is left up and consistent. Either way up says which.
 */
export async function runUp(opts: UpOpts, outer: Io): Promise<number> {
  const progress = startProgress("org up", outer);
  const io = progress.io;
  // ORG_TRACE_TIMINGS: each phase from its start to the next one's (docs/performance.md).
  const timings = timeUpPhases();
  const run: UpRun = {
    interrupts: catchInterrupts("org up", io), progress, phase: "check", recorded: false,
    enter: async (phase) => {
      timings.enter(phase);
      // The line an interrupt prints names the phase it arrived in.
      if (!run.interrupts.signal) run.phase = phase;
      progress.step(PHASES[phase]);
      await run.interrupts.enter(phase);
    },
  };
  try {
    return await startUp(opts, io, run);
  } catch (error) {
    if (!run.interrupts.signal || run.recorded) throw error;
    progress.done();
    const where = PHASES[run.phase];
    io.err(`org up interrupted by ${run.interrupts.signal} while ${where}: rolled back, nothing left running`);
    return run.interrupts.exitCode();
  } finally {
    timings.end();
    progress.done();
    run.interrupts.dispose();
  }
}

async function startUp(opts: UpOpts, io: Io, run: UpRun): Promise<number> {
  const since = Date.now();
  const interrupted = () => run.interrupts.signal !== undefined;
  const upped = await startOrg(
    { root: opts.root, tmux: opts.tmux !== false, resume: opts.resume === true, ab: opts.ab },
    {
      enter: run.enter,
      interrupted,
      say: io.out,
      warn: io.err,
      recorded: () => void (run.recorded = true),
    },
  );
  if (upped.kind === "refused") {
    for (const problem of upped.problems) io.err(problem);
    return 1;
  }
  const printed = await printUpped(upped, opts.root, io, run);
  if (printed !== 0) return printed;
  const { world, result } = upped;
  if (interrupted()) {
    const agents = `${result.record.agents.length} agents`;
    const after = `${run.interrupts.signal} after the grid started`;
    const next = "`org status` shows it, `org down` stops it";
    io.err(`org up interrupted by ${after}: the org is up (${agents}) — ${next}`);
    return run.interrupts.exitCode();
  }
  run.progress.done();
  const attach = world.panes(result.record.socket, result.record.session).attachArgv();
  if (opts.wait) {
    // The org is up: Ctrl-C now ends the wait alone, and the org goes on.
    run.interrupts.dispose();
    const agents = result.record.agents.map((agent) => agent.name);
    // A daemon already running retries no crashed baseline: its crashes count, however old.
    const from = upped.kind === "already-running" ? 0 : since;
    const code = upped.verifies ? await waitForBaselines(opts.root, agents, from, io) : 0;
    if (!upped.verifies) io.out("nothing to wait for: org.yaml has no verify section");
    io.out(`attach: org attach [agent]   (or: ${attach.join(" ")})`);
    return code;
  }
  if (opts.attach && process.stdin.isTTY && process.stdout.isTTY && !process.env.TMUX) {
    // Attached, the person's keys and signals are tmux's: a hang-up ends the client and this process with it.
    run.interrupts.dispose();
    return attachGrid(attach);
  }
  io.out(`attach: org attach [agent]   (or: ${attach.join(" ")})`);
  return 0;
}

/** What up found or started: the running org's verifier line and closed panes back, or the new org's status table. */
async function printUpped(
  upped: Exclude<Upped, { kind: "refused" }>,
  root: string,
  io: Io,
  run: UpRun,
): Promise<number> {
  const interrupted = () => run.interrupts.signal !== undefined;
  if (upped.kind === "already-running") {
    io.out(upped.result.reason);
    for (const line of await readVerifierLines(root, upped.result.record.agents)) io.out(line);
    const reloaded = await upped.reloadMissing();
    return reloaded ? printOutcome(reloaded, io, true) : 0;
  }
  const { result, world } = upped;
  for (const warning of result.warnings) io.err(`warning: ${warning}`);
  if (!interrupted()) await run.enter("wait");
  const waited = !interrupted() && (await upped.waitForAgents());
  run.progress.done();
  // What org up just listed and created is still true unless it had to wait: no tmux or git call for the table.
  const known = waited ? {} : { panes: result.panes, branches: async () => result.heads };
  if (!interrupted()) {
    const snapshot = await readSnapshot(world, root, known);
    const verifierLines = await readVerifierLines(root, snapshot.agents);
    io.out(renderStatus(snapshot, [], undefined, { verifierLines, width: io.columns }));
  }
  return 0;
}

// The verifier's queue and baselines, once its first look made the queue; none before.
async function readVerifierLines(root: string, agents: readonly { name: string }[]): Promise<string[]> {
  const view = await readUpVerifierView(root, agents.map((agent) => agent.name));
  if (!view) return [];
  return [formatVerifierLine(view), ...describeCrashedBaselines(view, root)];
}
