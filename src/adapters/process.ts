import { execa } from "execa";

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
  input?: string;
  timeoutMs?: number;
  /** Grace between SIGTERM and SIGKILL of the process group at the timeout. */
  killGraceMs?: number;
  /** Write stdout and stderr here instead of buffering them. */
  outputFile?: string;
  /** Aborting kills the whole process group, as a timeout does. */
  signal?: AbortSignal;
  /** After the program exits, SIGKILL whatever it left running in its group (a verify run's stray workers). */
  reapGroup?: boolean;
}

export interface Runner {
  run(argv: string[], options?: RunOptions): Promise<RunResult>;
}

/** Runs programs in their own process group so a timeout kills every descendant. */
export const processRunner: Runner = {
  async run(argv, options = {}) {
    const started = performance.now();
    const [file, ...args] = argv;
    const child = execa(file!, args, {
      cwd: options.cwd,
      env: options.env,
      extendEnv: !options.cleanEnv,
      input: options.input,
      stdin: options.input === undefined ? "ignore" : undefined,
      reject: false,
      detached: true,
      stripFinalNewline: false,
      ...(options.outputFile ? { stdout: { file: options.outputFile, append: true }, stderr: { file: options.outputFile, append: true } } : {}),
    });
    let timedOut = false;
    const timer = options.timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          if (child.pid) void killProcessGroup(child.pid, options.killGraceMs ?? 2000);
        }, options.timeoutMs)
      : undefined;
    let aborted = false;
    const onAbort = () => {
      aborted = true;
      if (child.pid) void killProcessGroup(child.pid, 500);
    };
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });
    const result = await child;
    if (timer) clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
    if (options.reapGroup && child.pid) signalGroup(child.pid, "SIGKILL");
    const spawnError = result.failed && result.exitCode === undefined && !result.signal ? result.originalMessage || result.shortMessage : undefined;
    return {
      argv,
      exitCode: result.exitCode ?? null,
      signal: result.signal ?? null,
      stdout: typeof result.stdout === "string" ? result.stdout : "",
      stderr: typeof result.stderr === "string" ? result.stderr : "",
      timedOut,
      durationMs: performance.now() - started,
      ...(spawnError ? { spawnError } : {}),
      ...(aborted ? { aborted } : {}),
    };
  },
};

/** True while a process (or group, with a negative pid) exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** SIGTERM a whole process group, then SIGKILL whatever is left after the grace period. */
export async function killProcessGroup(pgid: number, graceMs = 2000): Promise<void> {
  if (!signalGroup(pgid, "SIGTERM")) return;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!isAlive(-pgid)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  signalGroup(pgid, "SIGKILL");
}

function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Run a program on this terminal (attach, less): returns its exit code. */
export async function runInteractive(argv: string[], env?: Record<string, string | undefined>): Promise<number> {
  const [file, ...args] = argv;
  const result = await execa(file!, args, { stdio: "inherit", reject: false, env, extendEnv: true });
  return result.exitCode ?? 1;
}
