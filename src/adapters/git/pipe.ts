import type { ChildProcess, StdioOptions } from "node:child_process";
import { killProcessGroup, startChild } from "../process.js";
import { pinnedGitEnv } from "./global-config.js";

/** One side of a pipe: git's arguments and the folder it runs in. */
export interface PipeEnd {
  args: string[];
  cwd: string;
}

/**
 * How one side ended; stderr says why when it failed; stdout is the second side's, when it was asked for; bytes are
 * what the first side sent on, when it was asked to keep them.
 */
export interface PipeResult {
  exitCode: number | null;
  stderr: string;
  stdout?: string;
  bytes?: Buffer;
}

/**
 * `git <from> | git <to>`, each with `config` ahead of its command and in a process group of its own: the bytes go
 * from one to the other as they come (a pack, never held here whole). A timeout kills both groups.
 */
export async function pipeGit(
  from: PipeEnd & { input: string; keep?: boolean }, to: PipeEnd & { capture?: boolean }, config: string[],
  timeoutMs: number,
): Promise<[PipeResult, PipeResult]> {
  const env = { ...process.env, ...pinnedGitEnv() };
  const start = (end: PipeEnd, stdio: StdioOptions) => startChild(
    ["git", ...config.flatMap((entry) => ["-c", entry]), ...end.args], { cwd: end.cwd, env, detached: true, stdio },
  );
  const first = start(from, ["pipe", "pipe", "pipe"]);
  let second: ChildProcess;
  try {
    second = start(to, [from.keep ? "pipe" : first.stdout!, to.capture ? "pipe" : "ignore", "pipe"]);
  } catch (error) {
    // No pipe to hand on (the first did not start): both sides failed, as data.
    if (first.pid) void killProcessGroup(first.pid, 500);
    const failed = { exitCode: null, stderr: (error as Error).message };
    return [failed, failed];
  }
  const kept: Buffer[] = [];
  if (from.keep) {
    // Through node, kept on the way: the second reads the same bytes, and the first's are at hand with no second run.
    second.stdin?.on("error", () => undefined);
    first.stdout?.on("data", (chunk: Buffer) => kept.push(chunk));
    first.stdout?.pipe(second.stdin!);
  } else {
    // The second holds the pipe now; ours, never read, would keep the first's "close" from ever coming.
    first.stdout?.destroy();
  }
  first.stdin?.on("error", () => undefined);
  first.stdin?.end(from.input);
  const timer = setTimeout(() => {
    for (const child of [first, second]) if (child.pid) void killProcessGroup(child.pid, 500);
  }, timeoutMs);
  try {
    const [sent, got] = await Promise.all([finish(first), finish(second, to.capture)]);
    return [from.keep ? { ...sent, bytes: Buffer.concat(kept) } : sent, got];
  } finally {
    clearTimeout(timer);
  }
}

function finish(child: ChildProcess, capture = false): Promise<PipeResult> {
  const stderr: Buffer[] = [];
  const stdout: Buffer[] = [];
  child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk));
  if (capture) child.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk));
  return new Promise((resolve) => {
    // A failed spawn emits "error" and then "close": the first one answers.
    let settled = false;
    const done = (exitCode: number | null, why?: string) => {
      if (settled) return;
      settled = true;
      const out = capture ? { stdout: Buffer.concat(stdout).toString("utf8") } : {};
      resolve({ exitCode, stderr: why ?? Buffer.concat(stderr).toString("utf8"), ...out });
    };
    child.on("error", (error) => done(null, error.message));
    child.on("close", (code) => done(code));
  });
}
