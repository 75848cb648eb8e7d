import type { AgentPane, PaneLaunch } from "../ports.js";
import type { AgentStatus, LaunchSpec } from "../state.js";
import { wrapInSandbox } from "../sandbox/wrap.js";
import type { AgentSandbox } from "../sandbox/layout.js";
import {
  asksRelaunch, decideAfterExit, type ExitDecision, type ProgramExit, type RestartHistory,
} from "./supervise.js";

/** What the supervisor does for one agent, from what its pane shows and what its status file says. */
export type SupervisionStep =
  | { kind: "steady" }
  | { kind: "started"; pid: number; reason: string }
  | { kind: "exited"; exit: ProgramExit; decision: ExitDecision }
  | { kind: "blocked"; exit: ProgramExit; reason: string }
  | { kind: "respawn"; reason: string };

const LIVE_STATES = new Set(["starting", "running", "blocked"]);

/**
 * One supervision step, pure. A live pane whose pid the status does not know has started (by `org up`,
 * a respawn, or a person); a dead pane whose status still says live has exited, and the restart policy
 * decides, unless the agent is blocked (a login or a network only a person can fix: restarting would only
 * loop); a restart whose backoff has run out is due. `exitError` explains a program that never ran;
 * `blocked` is why the dead pane's screen says a person must act.
 */
export function stepAgent(input: {
  status: AgentStatus | undefined; pane: AgentPane; spec: LaunchSpec; now: number; exitError?: string; blocked?: string;
}): SupervisionStep {
  const { status, pane, now } = input;
  if (!pane.dead) {
    if (status && status.pid === pane.pid && status.state !== "starting") return { kind: "steady" };
    return { kind: "started", pid: pane.pid, reason: status?.state === "restarting" ? "restarted" : "started" };
  }
  // A blocked agent whose exit is recorded (no pid) waits for a person; any other live state has just ended,
  // and so has a run started after the recorded exit (a respawn) that died before any look saw it alive.
  const unseenRun = status?.pid === null && status.lastExit?.pid !== undefined && status.lastExit.pid !== pane.pid;
  if (!status || unseenRun || (LIVE_STATES.has(status.state) && !(status.state === "blocked" && status.pid === null))) {
    const startedAt = status?.startedAt ? Date.parse(status.startedAt) : now;
    const exit: ProgramExit = {
      code: pane.exitCode,
      signal: pane.exitSignal,
      startedAt,
      ...(input.exitError ? { error: input.exitError } : {}),
    };
    const blocked = input.blocked ?? (status?.state === "blocked" ? status.reason : undefined);
    // A CLI that asks to be started again gets its new start: the screen it left is its old one.
    const relaunch = asksRelaunch(input.spec, exit.code);
    if (blocked !== undefined && !relaunch) return { kind: "blocked", exit, reason: blocked };
    const history: RestartHistory = {
      restarts: status?.restarts ?? 0,
      consecutiveFailures: status?.consecutiveFailures ?? 0,
    };
    // The pane knows when its program ended: a supervisor that was down meanwhile still measures the run right.
    return { kind: "exited", exit, decision: decideAfterExit(input.spec, history, exit, exitTime(pane, now)) };
  }
  if (status.state === "restarting" && (!status.restartAt || Date.parse(status.restartAt) <= now)) {
    return { kind: "respawn", reason: status.reason };
  }
  return { kind: "steady" };
}

/**
 * The pane command for a launch spec: the agent program itself, so it owns the pane's terminal; in a sandbox, bwrap
 * runs it. `secrets` (pass_env values) reach the program through the pane's environment, never its command line.
 */
export function paneLaunch(
  spec: Pick<LaunchSpec, "argv" | "cwd" | "env">, secrets: Record<string, string> = {}, sandbox?: AgentSandbox,
): PaneLaunch {
  // A Slurm job agent's pane is `org slurm-run`, outside: its sandbox is made on the node, around the job step.
  if (sandbox && !sandbox.step) return wrapInSandbox(sandbox, spec, secrets);
  const { PATH: path, ...env } = { ...spec.env, ...secrets };
  // tmux puts its client's PATH over a pane's own -e PATH, so the PATH travels as an argument. tmux would also
  // run a one-word command through a shell: this fixed script execs the argv as data, never parsed.
  if (path !== undefined) return {
    argv: ["/bin/sh", "-c", 'PATH="$1"; export PATH; shift; exec "$@"', "org-agent", path, ...spec.argv],
    cwd: spec.cwd,
    env,
  };
  return { argv: ["/bin/sh", "-c", 'exec "$0" "$@"', ...spec.argv], cwd: spec.cwd, env };
}

/** When the pane's program ended: tmux says so to the second, which only beats `now` for an exit seen late. */
export function exitTime(pane: Pick<AgentPane, "exitedAt">, now: number): number {
  return pane.exitedAt !== null && pane.exitedAt + 1000 < now ? pane.exitedAt : now;
}
