import { execFile } from "node:child_process";
import type { Runner } from "./process.js";

/** A Runner without execa, for the supervisor: one per pane, so its start-up time counts N times. */
export const lightRunner: Runner = {
  run(argv, options = {}) {
    const started = performance.now();
    return new Promise((resolve) => {
      execFile(argv[0]!, argv.slice(1), { cwd: options.cwd, env: { ...process.env, ...options.env }, timeout: options.timeoutMs }, (error, stdout, stderr) => {
        const failure = error as (NodeJS.ErrnoException & { code?: number | string; signal?: string; killed?: boolean }) | null;
        const spawnError = typeof failure?.code === "string" ? failure.message : undefined;
        resolve({
          argv,
          exitCode: failure ? (typeof failure.code === "number" ? failure.code : null) : 0,
          signal: failure?.signal ?? null,
          stdout: String(stdout),
          stderr: String(stderr),
          timedOut: Boolean(failure?.killed && options.timeoutMs),
          durationMs: performance.now() - started,
          ...(spawnError ? { spawnError } : {}),
        });
      });
    });
  },
};
