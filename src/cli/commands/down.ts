import { downOrg, type DownResult } from "../../org/lifecycle/down.js";
import type { OrgRecord } from "../../org/state.js";
import { cancelOrgJobs, createSlurm } from "../../adapters/slurm/slurm.js";
import { createWorld } from "../../adapters/world.js";
import type { Io } from "../io.js";
import { readOptionalRecord } from "../../adapters/store/org-record.js";
import { findOrgLeftovers, removeRecord } from "../../adapters/store/org-leftovers.js";
import { recordProgramStop } from "../../adapters/store/program-record.js";
import { orgPaths } from "../../org/paths.js";
import { removeAbRun } from "../../adapters/store/ab-run.js";
import { stopKeeper } from "../../adapters/keeper-process.js";
import { startProgress } from "../progress.js";
import { catchInterrupts } from "../interrupt.js";

/**
 * `org down [--clean]`: stop everything of ours; with --clean remove clean worktrees, never branches.
 * Without a readable org.json (an interrupted `org up`) the org's own sockets and agent folders say what is ours.
 */
export async function runDown(opts: { root: string; clean: boolean }, outer: Io): Promise<number> {
  // A Ctrl-C halfway would leave some agents stopped and others running: down finishes, then says so.
  const interrupts = catchInterrupts("org down", outer);
  try {
    const code = await stopAll(opts, outer, (phase) => interrupts.enter(phase));
    if (!interrupts.signal) return code;
    outer.err(`org down: ${interrupts.signal} arrived while stopping; finished first, nothing of the org is left running`);
    return interrupts.exitCode();
  } finally {
    interrupts.dispose();
  }
}

async function stopAll(opts: { root: string; clean: boolean }, outer: Io, enter: (phase: string) => Promise<void>): Promise<number> {
  const progress = startProgress("org down", outer);
  const io = progress.io;
  try {
    const paths = orgPaths(opts.root);
    const read = await readRecordOrWhy(opts.root);
    const record = read.record;
    // First the keeper, which would otherwise restart the daemon that down stops next.
    progress.step("stopping the keeper");
    const keeper = await stopKeeper(opts.root, paths.state);
    await enter("stop");
    const found = await findOrgLeftovers(opts.root);
    const input = { clean: opts.clean, record, ...found, onStep: progress.step };
    const result = await downOrg(createWorld(), opts.root, input);
    if (record || result.wasRunning) await recordProgramStop(paths.state, new Date());
    // Both halves of an A/B run end together; their rows keep their programs.
    await removeAbRun(paths.state);
    progress.done();
    if (!record) {
      // Everything it could name is stopped: an unreadable org.json would only make every later command fail on it.
      if (read.unreadable) await removeRecord(opts.root);
      printWithoutRecord(read, result, keeper, opts.clean, io);
      return 0;
    }
    const server = record.mode === "pty" ? "the pty host" : "the tmux server";
    const stopped = `stopped: ${result.stoppedGroups} process groups and ${server}`;
    io.out(result.wasRunning ? stopped : "the org was not running; cleaned up what was left");
    if (record.backend === "slurm") {
      // Jobs hold GPUs after their panes are gone: cancel ours, found by our comment, never by user.
      const cancelled = await cancelOrgJobs(createSlurm(), record.name);
      io.out(cancelled.ok ? `cancelled ${cancelled.value.length} Slurm jobs of org ${record.name}` : `could not cancel Slurm jobs: ${cancelled.error} — run \`scancel\` on jobs named org-${record.name}-*`);
    }
    if (opts.clean) {
      if (result.removed.length > 0) io.out(`removed worktrees: ${result.removed.join(", ")} (branches kept)`);
      for (const kept of result.kept) io.out(`kept ${kept.worktree}: ${kept.reason} — commit or discard it, then \`org down --clean\` again`);
    }
    return 0;
  } finally {
    progress.done();
  }
}

function printWithoutRecord(read: RecordMissing, result: DownResult, keeper: boolean, clean: boolean, io: Io): void {
  const server = (socket: string) => (socket.startsWith("pty:") ? "the pty host" : `the tmux server ${socket}`);
  const grids = `${result.stoppedGroups} process groups and ${result.servers.map(server).join(", ")}`;
  const what = [...(result.wasRunning ? [grids] : []), ...(keeper ? ["the keeper"] : [])];
  io.out(what.length > 0
    ? `${read.why}: stopped the org by its own socket and records — ${what.join(", ")}`
    : `nothing of this org was running (${read.why}; no tmux server on its socket, pty host or keeper)`);
  if (read.unreadable) io.out(`removed the unreadable ${read.file}; \`org up\` starts afresh`);
  if (clean) {
    const fix = "`org up`, then `org down --clean`";
    io.out(`removed no worktree: without org.json which worktrees are the org's is unknown — ${fix}`);
  }
}

// A half-written org.json (a killed writer, a full disk) is no record: down goes on by socket and folders.
type RecordMissing = { record: undefined; file: string; why: string; unreadable: boolean };
type RecordRead = { record: OrgRecord; why?: undefined; unreadable?: undefined } | RecordMissing;

async function readRecordOrWhy(root: string): Promise<RecordRead> {
  const file = orgPaths(root).orgFile;
  const record = await readOptionalRecord(root).catch((error: Error) => error);
  if (record === undefined) return { record, file, why: `no ${file}`, unreadable: false };
  if (record instanceof Error) {
    return { record: undefined, file, why: `${file} is unreadable (half-written, or not an org record)`, unreadable: true };
  }
  if (typeof record.socket !== "string" || !Array.isArray(record.agents)) {
    return { record: undefined, file, why: `${file} is incomplete`, unreadable: true };
  }
  return { record };
}
