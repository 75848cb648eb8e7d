// Phase timings on demand: where each millisecond of `org up` and of a verify run went, for the bench and a person
// asking why. Off (and free) unless ORG_TRACE_TIMINGS is set: `1` prints to stderr, a path appends JSON lines there.
import { appendFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

export const TRACE_VAR = "ORG_TRACE_TIMINGS";

/** One timed phase: `scope` is the process's part (up, verifier), `phase` what it did. */
export interface TraceLine {
  scope: string;
  phase: string;
  ms: number;
  at: string;
  pid: number;
  detail?: string;
}

function traceTarget(): string | undefined {
  const value = process.env[TRACE_VAR];
  return value === undefined || value === "" || value === "0" ? undefined : value;
}

export function isTracing(): boolean {
  return traceTarget() !== undefined;
}

function writeTrace(line: TraceLine): void {
  const target = traceTarget();
  if (!target) return;
  try {
    if (target.startsWith("/")) appendFileSync(target, `${JSON.stringify(line)}\n`);
    else process.stderr.write(
      `[org trace] ${line.scope} ${line.phase} ${line.ms.toFixed(1)} ms${line.detail ? ` (${line.detail})` : ""}\n`,
    );
  } catch {
    // A trace that cannot be written must never change what org does.
  }
}

/** Starts a phase; the function it returns ends it (and says so when tracing). */
export function startPhase(scope: string, phase: string): (detail?: string) => void {
  if (!isTracing()) return () => {};
  const started = performance.now();
  return (detail) => {
    const line = { scope, phase, ms: performance.now() - started, at: new Date().toISOString(), pid: process.pid };
    writeTrace(detail ? { ...line, detail } : line);
  };
}

/** A phase timed elsewhere (from a request's submittedAt, say). */
export function recordPhase(scope: string, phase: string, ms: number, detail?: string): void {
  if (!isTracing()) return;
  const line = { scope, phase, ms, at: new Date().toISOString(), pid: process.pid };
  writeTrace(detail ? { ...line, detail } : line);
}

/** Times one awaited step. */
export async function tracePhase<T>(scope: string, phase: string, step: () => Promise<T>): Promise<T> {
  const end = startPhase(scope, phase);
  try {
    return await step();
  } finally {
    end();
  }
}

/** The port itself when not tracing; otherwise one whose every method call is timed under its name. */
export function tracePort<T extends object>(port: T, scope: string): T {
  if (!isTracing()) return port;
  return new Proxy(port, {
    // Read off the target itself: a class's getters and private fields see their own object, never the proxy.
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (typeof value !== "function" || typeof key !== "string") return value;
      return (...args: unknown[]) => {
        const end = startPhase(scope, key);
        const result: unknown = (value as (...params: unknown[]) => unknown).apply(target, args);
        if (result instanceof Promise) return result.finally(() => end());
        end();
        return result;
      };
    },
  });
}
