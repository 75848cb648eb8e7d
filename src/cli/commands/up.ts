import { orgPaths } from "../../org/paths.js";
import { readSnapshot, readStatuses } from "../../org/views/status.js";
import { declaredSecrets, upOrg, type UpPhase } from "../../org/lifecycle/up.js";
import { decideStoppedUp } from "../../org/lifecycle/stopped-up.js";
import type { LoadedConfig } from "../../org/config/index.js";
import { readOptionalRecord } from "../../adapters/store/org-record.js";
import { evaluateStop, readStopFile, readWaivers, writeWaivers } from "../../adapters/store/stop-state.js";
import { runInteractive } from "../../adapters/process.js";
import { allowKeeper, findRunningKeeper, keeperEnv, startKeeper } from "../../adapters/keeper-process.js";
import { createWorld } from "../../adapters/world.js";
import { findMissingPrograms, findProgram } from "../../adapters/probes/runtime.js";
import { calibrateJudge } from "../../adapters/verifier/judge-calibration.js";
import { runPreflight } from "../../adapters/probes/preflight.js";
import { renderStatus } from "../../ui/status-table.js";
import type { Io } from "../io.js";
import { prepareUp } from "../up-programs.js";
import { startPhase } from "../../adapters/trace.js";
import { catchInterrupts, type Interrupts } from "../interrupt.js";
import { startProgress, type Progress } from "../progress.js";
import { waitForBaselines } from "../up-wait.js";
import { readVerifierInput } from "../../adapters/store/verifier-state.js";
import { buildVerifierView } from "../../org/views/verifier.js";
import { describeCrashedBaselines, formatVerifierLine } from "../../ui/verifier-line.js";

const READY_TIMEOUT_MS = 15_000;

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
 * `org up`: plan, worktrees, leases, the grid; attach when a person is at a terminal. `tmux: false` runs the grid in node-pty.
 * An org whose stop condition holds is refused, unless `resume` goes on past it. SIGINT or SIGTERM before org.json is
 * written rolls back what was started; after, the org is left up and consistent. Either way up says which.
 */
export async function runUp(opts: UpOpts, outer: Io): Promise<number> {
  const progress = startProgress("org up", outer);
  const io = progress.io;
  // ORG_TRACE_TIMINGS: each phase from its start to the next one's (docs/performance.md).
  let endPhase = (): void => {};
  const total = startPhase("up", "total");
  const run: UpRun = {
    interrupts: catchInterrupts("org up", io), progress, phase: "check", recorded: false,
    enter: async (phase) => {
      endPhase();
      endPhase = startPhase("up", phase);
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
    endPhase();
    total();
    progress.done();
    run.interrupts.dispose();
  }
}

async function startUp(opts: UpOpts, io: Io, run: UpRun): Promise<number> {
  const since = Date.now();
  await run.enter("check");
  // A stop deadline already past is refused, unless `--resume` goes on past it.
  const now = opts.resume ? undefined : new Date();
  const read = await prepareUp(opts.root, opts.ab, now);
  if ("problems" in read) {
    for (const problem of read.problems) io.err(problem);
    return 1;
  }
  const world = createWorld();
  // The trial sandbox (a bwrap start) runs while the programs and the stop condition are checked: org up awaits it later.
  if (read.loaded.config.sandbox?.enabled !== false) void world.sandbox.probe();
  // Checked before anything is created: a pane whose program is missing would only restart-loop.
  const [programs, preflight] = await Promise.all([
    findMissingPrograms(read.loaded.config, read.loaded.repoDir), runPreflight(read.loaded, world.gpus),
  ]);
  // Uncommitted changes and files a role may only create are said, and the org starts without them.
  for (const warning of preflight.warnings) io.err(warning);
  const missing = [...programs, ...preflight.problems];
  if (missing.length > 0) {
    for (const problem of missing) io.err(problem);
    return 1;
  }
  const refused = await checkStop(opts.root, read.loaded, opts.resume === true, io);
  if (refused) {
    io.err(refused);
    return 1;
  }
  // A judge not calibrated on the references, or one that cannot tell them apart, judges nothing: nothing starts.
  const calibration = await calibrateJudge(read.loaded, (line) => io.err(line));
  if (calibration.kind === "refused") {
    io.err(calibration.message);
    return 1;
  }
  if (calibration.kind !== "none") io.err(calibration.summary);
  // A program not recorded costs `org history` a line, never the start itself.
  const onStart = () => read.record(new Date())
    .then((line) => void (line && io.out(line)), (error: Error) => io.err(`warning: the program version was not recorded in state/programs: ${error.message}`));
  // `org down` left keepers a mark to stay away: from here on one keeps the daemon running.
  await allowKeeper(orgPaths(opts.root).state);
  const interrupted = () => run.interrupts.signal !== undefined;
  const mode = await chooseMode(opts.tmux !== false, io);
  const result = await upOrg(world, read.loaded, { mode, onStart, onPhase: run.enter, interrupted });
  run.recorded = true;
  await run.enter("keeper");
  await ensureKeeper(opts.root, world.orgArgv, declaredSecrets(read.loaded.config));
  if (result.kind === "already-running") {
    io.out(result.reason);
    for (const line of await readVerifierLines(opts.root, result.record.agents)) io.out(line);
    // An agent pane closed by hand comes back the way `org reload` adds a missing agent.
    const panes = await world.tmux(result.record.socket, result.record.session).listPanes();
    if (result.record.agents.some((agent) => !panes.some((pane) => pane.options["@org_agent"] === agent.name))) {
      // Loaded only here: a plain `org up` starts without the reload machinery.
      const [{ reloadOrg }, { printOutcome }] = await Promise.all([import("../../daemon/reload/reload-org.js"), import("../shared.js")]);
      const reloaded = printOutcome(await reloadOrg(world, { root: opts.root, read, by: "org up", apply: true }), io, true);
      if (reloaded !== 0) return reloaded;
    }
  } else {
    for (const warning of result.warnings) io.err(`warning: ${warning}`);
    if (!interrupted()) await run.enter("wait");
    const names = result.record.agents.map((agent) => agent.name);
    const waited = !interrupted() && (await waitUntilStarted(world, opts.root, names, interrupted));
    run.progress.done();
    // What org up just listed and created is still true unless it had to wait: no tmux or git call for the table.
    const known = waited ? {} : { panes: result.panes, branches: async () => result.heads };
    if (!interrupted()) {
      const snapshot = await readSnapshot(world, opts.root, known);
      const verifierLines = await readVerifierLines(opts.root, snapshot.agents);
      io.out(renderStatus(snapshot, [], undefined, { verifierLines, width: io.columns }));
    }
  }
  if (interrupted()) {
    const agents = `${result.record.agents.length} agents`;
    const after = `${run.interrupts.signal} after the grid started`;
    const next = "`org status` shows it, `org down` stops it";
    io.err(`org up interrupted by ${after}: the org is up (${agents}) — ${next}`);
    return run.interrupts.exitCode();
  }
  run.progress.done();
  if (opts.wait) {
    // The org is up: Ctrl-C now ends the wait alone, and the org goes on.
    run.interrupts.dispose();
    const agents = result.record.agents.map((agent) => agent.name);
    // A daemon already running retries no crashed baseline: its crashes count, however old.
    const from = result.kind === "already-running" ? 0 : since;
    const code = read.loaded.config.verify ? await waitForBaselines(opts.root, agents, from, io) : 0;
    if (!read.loaded.config.verify) io.out("nothing to wait for: org.yaml has no verify section");
    const attach = world.tmux(result.record.socket, result.record.session).attachArgv();
    io.out(`attach: org attach [agent]   (or: ${attach.join(" ")})`);
    return code;
  }
  const attach = world.tmux(result.record.socket, result.record.session).attachArgv();
  if (opts.attach && process.stdin.isTTY && process.stdout.isTTY && !process.env.TMUX) {
    // Attached, the person's keys and signals are tmux's: a hang-up ends the client and this process with it.
    run.interrupts.dispose();
    return runInteractive(attach);
  }
  io.out(`attach: org attach [agent]   (or: ${attach.join(" ")})`);
  return 0;
}

/** Why a stop condition refuses this `org up`; with `resume`, the conditions met are waived and the daemon goes on. */
async function checkStop(root: string, loaded: LoadedConfig, resume: boolean, io: Io): Promise<string | undefined> {
  // A half-written org.json is upOrg's to explain (`org down`, then `org up`), not a crash here.
  const record = await readOptionalRecord(root).catch(() => undefined);
  if (!record || !loaded.config.stop) return undefined;
  const state = orgPaths(root).state;
  const stopped = await readStopFile(state);
  const decision = await evaluateStop({ config: loaded.config, record, now: new Date() });
  const up = decideStoppedUp({ name: loaded.config.name, stop: loaded.config.stop, decision, record: stopped?.kind === "stop" ? stopped : undefined, resume, waived: await readWaivers(state) });
  if (up.kind === "refuse") return up.reason;
  if (up.kind === "waive") {
    await writeWaivers(state, up.waivers);
    io.out(up.reason);
  }
  return undefined;
}

// Without tmux the same org runs in node-pty: asked for, or because tmux is not installed.
async function chooseMode(wantTmux: boolean, io: Io): Promise<"tmux" | "pty"> {
  if (!wantTmux) return "pty";
  // A PATH lookup, not a `tmux -V`: every process spawned here is time a person waits on `org up`.
  if (await findProgram("tmux", process.cwd())) return "tmux";
  io.err("notice: tmux not found on PATH — running the org without it (node-pty); watch it with `org watch`");
  return "pty";
}

// org up records every program it saw running; one that died at once waits for the daemon's supervisor to say why.
// Only status files are polled: a full snapshot per poll would spawn tmux and git and slow the very start it waits for.
async function waitUntilStarted(
  world: ReturnType<typeof createWorld>,
  root: string,
  agents: string[],
  interrupted: () => boolean,
): Promise<boolean> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (let polls = 0; ; polls++) {
    const statuses = await readStatuses(world, orgPaths(root).state, agents);
    const started = [...statuses.values()].every((status) => status && status.state !== "starting");
    if (started || Date.now() > deadline || interrupted()) return polls > 0;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

// The daemon starts one too, but a daemon that dies before its first look would then have none: `org up` starts it.
async function ensureKeeper(root: string, orgArgv: readonly string[], secrets: readonly string[]): Promise<void> {
  const state = orgPaths(root).state;
  if ((await findRunningKeeper(root, state)) !== undefined) return;
  await startKeeper({ root, state, orgArgv, env: keeperEnv(process.env, secrets) });
}

// The verifier's queue and baselines, once its first look made the queue; none before.
async function readVerifierLines(root: string, agents: readonly { name: string }[]): Promise<string[]> {
  const input = await readVerifierInput(root, agents.map((agent) => agent.name));
  if (!input) return [];
  const view = buildVerifierView(input);
  return [formatVerifierLine(view), ...describeCrashedBaselines(view, root)];
}
