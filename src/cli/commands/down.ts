import { stopOrg, type Stopped } from "../../flows/stop-org.js";
import type { Io } from "../io.js";
import { startProgress } from "../progress.js";
import { catchInterrupts } from "../interrupt.js";

/**
 * `org down [--clean]`: stop everything of ours; with --clean remove clean worktrees, never branches.
 * Without a readable org.json (an interrupted `org up`) the org's own sockets and agent folders say what is ours.
 */
export async function runDown(opts: { root: string; clean: boolean }, outer: Io): Promise<number> {
  // A Ctrl-C halfway would leave some agents stopped and others running: down finishes, then says so.
  const interrupts = catchInterrupts("org down", outer);
  const progress = startProgress("org down", outer);
  try {
    const stopped = await stopOrg(opts, { step: progress.step, enter: (phase) => interrupts.enter(phase) });
    progress.done();
    if (stopped.kind === "found") printWithoutRecord(stopped, opts.clean, progress.io);
    else printStopped(stopped, opts.clean, progress.io);
    if (!interrupts.signal) return 0;
    outer.err(
      `org down: ${interrupts.signal} arrived while stopping; finished first, nothing of the org is left running`,
    );
    return interrupts.exitCode();
  } finally {
    progress.done();
    interrupts.dispose();
  }
}

function printStopped(
  { record, result, cancelled }: Extract<Stopped, { kind: "stopped" }>, clean: boolean, io: Io,
): void {
  const server = record.mode === "pty" ? "the pty host" : "the tmux server";
  const stopped = `stopped: ${result.stoppedGroups} process groups and ${server}`;
  io.out(result.wasRunning ? stopped : "the org was not running; cleaned up what was left");
  if (cancelled) {
    const fix = `run \`scancel\` on jobs named org-${record.name}-*`;
    io.out(cancelled.ok
      ? `cancelled ${cancelled.value.length} Slurm jobs of org ${record.name}`
      : `could not cancel Slurm jobs: ${cancelled.error} — ${fix}`);
  }
  if (clean) {
    if (result.removed.length > 0) io.out(`removed worktrees: ${result.removed.join(", ")} (branches kept)`);
    for (const kept of result.kept) io.out(
      `kept ${kept.worktree}: ${kept.reason} — commit or discard it, then \`org down --clean\` again`,
    );
  }
}

function printWithoutRecord(
  { missing, result, keeper }: Extract<Stopped, { kind: "found" }>, clean: boolean, io: Io,
): void {
  const server = (socket: string) => (socket.startsWith("pty:") ? "the pty host" : `the tmux server ${socket}`);
  const grids = `${result.stoppedGroups} process groups and ${result.servers.map(server).join(", ")}`;
  const what = [...(result.wasRunning ? [grids] : []), ...(keeper ? ["the keeper"] : [])];
  io.out(what.length > 0
    ? `${missing.why}: stopped the org by its own socket and records — ${what.join(", ")}`
    : `nothing of this org was running (${missing.why}; no tmux server on its socket, pty host or keeper)`);
  if (missing.unreadable) io.out(`removed the unreadable ${missing.file}; \`org up\` starts afresh`);
  if (clean) {
    const fix = "`org up`, then `org down --clean`";
    io.out(`removed no worktree: without org.json which worktrees are the org's is unknown — ${fix}`);
  }
}
