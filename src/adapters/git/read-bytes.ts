import { killProcessGroup, startChild } from "../process.js";
import { pinnedGitEnv } from "./global-config.js";

/** How one git call ended: its stdout as the bytes git wrote (a diff of files that are not UTF-8 stays exact). */
export interface GitBytes {
  exitCode: number | null;
  stderr: string;
  bytes: Buffer;
}

/** `git <args>` in `cwd`, in a process group of its own (a timeout kills the group), its stdout kept as bytes. */
export function readGitBytes(args: string[], cwd: string, timeoutMs: number): Promise<GitBytes> {
  const env = { ...process.env, ...pinnedGitEnv() };
  return new Promise((resolve) => {
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    // A failed spawn emits "error" and then "close", or throws (a cwd that is a file): the first one answers.
    const done = (exitCode: number | null, why?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ exitCode, stderr: why ?? Buffer.concat(stderr).toString("utf8"), bytes: Buffer.concat(stdout) });
    };
    try {
      const child = startChild(["git", ...args], { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
      child.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk));
      child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk));
      child.on("error", (error) => done(null, error.message));
      child.on("close", (code) => done(code));
      timer = setTimeout(() => child.pid && void killProcessGroup(child.pid, 500), timeoutMs);
    } catch (error) {
      done(null, (error as Error).message);
    }
  });
}
