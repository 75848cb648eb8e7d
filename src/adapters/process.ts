import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { closeSync, existsSync, openSync, readdirSync, readFileSync } from "node:fs";
import { usage } from "./usage/counters.js";

/** A finished subprocess, as data: never a thrown string. */
export interface RunResult {
  argv: string[];
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  durationMs: number;
  /** Set when the program could not be started at all (ENOENT, EACCES). */
  spawnError?: string;
  /** Ended by RunOptions.signal. */
  aborted?: boolean;
}

export interface RunOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** Replace the environment instead of extending process.env. */
  cleanEnv?: boolean;
  /** Fed to stdin; bytes as they are when a Buffer (a diff of files that are not UTF-8). */
  input?: string | Buffer;
  timeoutMs?: number;
  /** Grace between SIGTERM and SIGKILL of the process group at the timeout. */
  killGraceMs?: number;
  /** Write stdout and stderr here instead of buffering them. */
  outputFile?: string;
  /** Aborting kills the whole process group, as a timeout does. */
  signal?: AbortSignal;
  /** After the program exits, SIGKILL whatever it left running in its group (a verify run's stray workers). */
  reapGroup?: boolean;
  /** Stay in our process group, so whoever stops our group stops it too (an agent's own `org submit`). */
  sameGroup?: boolean;
  /** Told the pid right after the spawn (to record a child that may outlive us), and again once it is done. */
  onSpawn?: (pid: number | undefined) => void;
  onExit?: (pid: number | undefined) => void;
}

/**
 * A child that lives alongside us (a control client, a waiter, a detached host): for what streams or outlives a call.
 */
export function startChild(argv: string[], options: SpawnOptions = {}): ChildProcess {
  usage.spawned++;
  const [file, ...args] = argv;
  return spawn(file!, args, options);
}

export interface Runner {
  run(argv: string[], options?: RunOptions): Promise<RunResult>;
}

/**
 * Runs programs in their own process group so a timeout kills every descendant. Built on node:child_process,
 * not execa: every CLI command starts through it, and execa's import alone costs ~140 ms of each start.
 */
export const processRunner: Runner = {
  run(argv, options = {}) {
    usage.spawned++;
    const started = performance.now();
    const [file, ...args] = argv;
    const output = options.outputFile ? openSync(options.outputFile, "a") : undefined;
    const env = options.cleanEnv
      ? withoutUndefined(options.env ?? {})
      : withoutUndefined({ ...process.env, ...options.env });
    return new Promise<RunResult>((resolve) => {
      let timedOut = false;
      let aborted = false;
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      let child: ChildProcess;
      try {
        child = spawn(file!, args, {
          cwd: options.cwd,
          env,
          detached: !options.sameGroup,
          stdio: [options.input === undefined ? "ignore" : "pipe", output ?? "pipe", output ?? "pipe"],
        });
      } catch (error) {
        // A cwd that is a file throws ENOTDIR here rather than emitting "error": a result all the same.
        if (output !== undefined) closeSync(output);
        resolve({
          argv, exitCode: null, signal: null, timedOut: false, durationMs: performance.now() - started, stdout: "",
          stderr: "", spawnError: (error as Error).message,
        });
        return;
      }
      options.onSpawn?.(child.pid);
      child.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk));
      child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk));
      if (options.input !== undefined) child.stdin?.end(options.input);
      child.stdin?.on("error", () => undefined);
      const kill = (graceMs: number) => child.pid && void killProcessGroup(child.pid, graceMs);
      const timer = options.timeoutMs
        ? setTimeout(() => ((timedOut = true), kill(options.killGraceMs ?? 2000)), options.timeoutMs)
        : undefined;
      const onAbort = () => ((aborted = true), kill(500));
      if (options.signal?.aborted) onAbort();
      else options.signal?.addEventListener("abort", onAbort, { once: true });
      let settled = false;
      // A failed spawn emits "error" and, with pipes, "close" too: the first one answers.
      const finish = (exitCode: number | null, signal: string | null, spawnError?: string) => {
        if (settled) return;
        settled = true;
        if (timer) clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
        if (output !== undefined) closeSync(output);
        if (options.reapGroup && child.pid) sendSignal(-child.pid, "SIGKILL");
        options.onExit?.(child.pid);
        resolve({
          argv, exitCode, signal, timedOut, durationMs: performance.now() - started,
          stdout: Buffer.concat(stdout).toString("utf8"), stderr: Buffer.concat(stderr).toString("utf8"),
          ...(spawnError ? { spawnError } : {}), ...(aborted ? { aborted } : {}),
        });
      };
      child.on("error", (error) => finish(null, null, error.message));
      child.on("close", (code, signal) => finish(code, signal));
    });
  },
};

function withoutUndefined(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** True while a process (or group, with a negative pid) runs: zombies, which no init may ever reap, do not count. */
export function isAlive(pid: number): boolean {
  if (!answersSignal(pid)) return false;
  if (pid > 0) return isRunningProcess(pid);
  return isRunningProcess(-pid) || hasRunningMember(-pid);
}

/** USER_HZ, the unit of /proc/<pid>/stat's start time: 100 on every architecture Node runs on. */
export const TICKS_PER_SECOND = 100;

/** The start time of a live, non-zombie process, in ticks since boot; null when there is none (or no /proc). */
export function readStartTicks(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields after the name start at field 3 (state); starttime is field 22.
    return fields[0] === "Z" ? null : Number(fields[19]);
  } catch {
    return null;
  }
}

/** Whether `pid` is still the process first seen with start time `ticks` (readStartTicks): a reused pid is not. */
export function isSameProcess(pid: number, ticks: number | null): boolean {
  // Without /proc there is no start time to compare: a live pid is taken as the same process.
  return ticks === null ? isAlive(pid) : readStartTicks(pid) === ticks;
}

/** When the machine booted, in ms since the epoch; null without /proc. */
export function readBootMs(): number | null {
  try {
    return Date.now() - Number(readFileSync("/proc/uptime", "utf8").split(" ")[0]) * 1000;
  } catch {
    return null;
  }
}

/** When the live, non-zombie process `pid` started, in ms since the epoch; undefined when none (or no /proc). */
export function readStartedAt(pid: number): number | undefined {
  const ticks = readStartTicks(pid);
  const bootMs = ticks === null ? null : readBootMs();
  return ticks === null || bootMs === null ? undefined : bootMs + (ticks * 1000) / TICKS_PER_SECOND;
}

/** Whether any process of group `pgid` is left, exited ones not yet reaped included: what a signal to it reaches. */
export function groupExists(pgid: number): boolean {
  return answersSignal(-pgid);
}

function answersSignal(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

// A group's member found running last time: a long-lived group (a warm worker whose launcher exited) is asked
// about every few seconds, and one stat is cheaper than a scan of /proc.
const knownMembers = new Map<number, string>();

/** Whether any process of group `pgid` runs; read from /proc, where a signal probe counts zombies too. */
function hasRunningMember(pgid: number): boolean {
  const known = knownMembers.get(pgid);
  if (known !== undefined && isRunningMemberOf(known, pgid)) return true;
  knownMembers.delete(pgid);
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return true;
  }
  const member = entries.find((entry) => /^\d+$/.test(entry) && isRunningMemberOf(entry, pgid));
  if (member === undefined) return false;
  if (knownMembers.size > 64) knownMembers.clear();
  knownMembers.set(pgid, member);
  return true;
}

function isRunningMemberOf(pid: string, pgid: number): boolean {
  const stat = readStat(pid);
  // The command name may hold spaces and parentheses: the fields start after its last ")".
  const fields = stat?.slice(stat.lastIndexOf(")") + 2).split(" ");
  return fields !== undefined && fields[0] !== "Z" && Number(fields[2]) === pgid;
}

function readStat(pid: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
}

/** Whether `pid` still runs: a zombie (exited, not reaped yet) does not. */
export function isRunningProcess(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch (error) {
    // Without /proc (not Linux), fall back to a signal 0 probe.
    return (error as NodeJS.ErrnoException).code === "ENOENT" && !existsSync("/proc/self") ? answersSignal(pid) : false;
  }
}

/** SIGTERM a whole process group, then SIGKILL whatever is left after the grace period. */
export async function killProcessGroup(pgid: number, graceMs = 2000): Promise<void> {
  // A child forked a moment ago may not lead its own group yet (setsid comes just before exec): signal it by pid then.
  if (!sendSignal(-pgid, "SIGTERM") && !sendSignal(pgid, "SIGTERM")) return;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!isAlive(-pgid) && !isRunningProcess(pgid)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  if (!sendSignal(-pgid, "SIGKILL")) sendSignal(pgid, "SIGKILL");
}

/** Signal one process: sent, or why not (its errno code: ESRCH when it has exited, EPERM when it is not ours). */
export function signalProcess(pid: number, name: NodeJS.Signals): { sent: true } | { sent: false; code: string } {
  try {
    process.kill(pid, name);
    return { sent: true };
  } catch (error) {
    return { sent: false, code: (error as NodeJS.ErrnoException).code ?? "gone" };
  }
}

function sendSignal(target: number, name: NodeJS.Signals): boolean {
  try {
    process.kill(target, name);
    return true;
  } catch {
    return false;
  }
}

/** Run a program on this terminal (attach, less): returns its exit code. */
export function runInteractive(argv: string[], env?: Record<string, string | undefined>): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), {
      stdio: "inherit", env: withoutUndefined({ ...process.env, ...env }),
    });
    child.on("error", () => resolve(127));
    child.on("close", (code) => resolve(code ?? 1));
  });
}
