import type { Writable } from "node:stream";
import type { ChildTicket, ChildTracker } from "../../domain/ports.js";
import { isAlive, killProcessGroup, startChild } from "../process.js";

/** The hidden command a warm worker runs: it loads org, then waits on fd 3 for the one request it will run. */
export const WARM_WORKER_COMMAND = "outbox-worker";

/** What a warm worker is handed, one JSON text on fd 3: the command runOutboxCommand would start, and its outputs. */
export interface WarmRequest {
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  /** The request's files but for the suffix; `local`: .out and .err are the shim's FIFOs (else .status comes by rename). */
  base: string;
  local: boolean;
}

export interface WarmWorkers {
  /** Hands `request` to the idle worker: its process group, or undefined when none is ready (then run it cold). */
  hand(request: WarmRequest, what: string): { pid: number; ended: () => void } | undefined;
  /** Starts a worker when none is idle, replacing one that died idle; a worker that keeps dying is given up on. */
  ensure(): void;
  close(): Promise<void>;
}

interface Idle {
  pid: number;
  ticket: ChildTicket;
  input: Writable;
}

// Workers that died idle in a row before the rest run cold: a broken install must not restart one every second.
const MAX_IDLE_DEATHS = 3;

/**
 * One `org outbox-worker` started ahead, so a brokered command skips node's start-up and org's load. It starts as a
 * cold command does: a /bin/sh in its own process group that leaves it to init, recorded in the child records.
 */
export function createWarmWorkers(orgArgv: readonly string[], children: ChildTracker): WarmWorkers {
  let idle: Idle | undefined;
  let deaths = 0;
  let closed = false;
  const start = () => {
    const what = `org ${WARM_WORKER_COMMAND} (idle, for the next brokered command)`;
    const ticket = children.announce("command", what, true);
    // fd 3, not stdin: a non-interactive shell gives a job it starts in the background /dev/null as its stdin.
    const child = startChild(["/bin/sh", "-c", '"$@" &', "sh", ...orgArgv, WARM_WORKER_COMMAND], {
      env: { ...process.env, ...ticket.env }, stdio: ["ignore", "ignore", "ignore", "pipe"], detached: true,
    });
    child.on("error", () => ticket.ended(child.pid));
    child.unref();
    const input = child.stdio[3] as Writable | null;
    if (child.pid === undefined || !input) return ticket.ended(child.pid);
    // A worker gone leaves its pipe broken: the next look replaces it.
    input.on("error", () => undefined);
    (input as Writable & { unref?: () => void }).unref?.();
    ticket.started(child.pid);
    idle = { pid: child.pid, ticket, input };
  };
  const dropDead = () => {
    if (!idle || isAlive(-idle.pid)) return;
    idle.ticket.ended(idle.pid);
    idle = undefined;
    deaths += 1;
  };
  return {
    hand(request, what) {
      dropDead();
      const worker = idle;
      if (!worker || closed) return undefined;
      idle = undefined;
      // Its record now says what it runs, as a cold command's does.
      const ticket = children.announce("command", what, true);
      worker.input.end(`${JSON.stringify({ ...request, env: { ...request.env, ...ticket.env } })}\n`);
      ticket.started(worker.pid);
      deaths = 0;
      start();
      return { pid: worker.pid, ended: () => ticket.ended(worker.pid) };
    },
    ensure() {
      dropDead();
      if (!idle && !closed && deaths < MAX_IDLE_DEATHS) start();
    },
    async close() {
      closed = true;
      const worker = idle;
      idle = undefined;
      if (!worker) return;
      // Its fd 3 ends with nothing on it: an idle worker then exits by itself; this makes sure.
      worker.input.end();
      await killProcessGroup(worker.pid, 1000);
      worker.ticket.ended(worker.pid);
    },
  };
}
