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
  /**
   * The request's files but for the suffix; `local`: .out and .err are the shim's FIFOs (else .status
   * comes by rename).
   */
  base: string;
  local: boolean;
}

export interface WarmWorkers {
  /** Hands `request` to an idle worker: its process group, or undefined when none is ready (then run it cold). */
  hand(request: WarmRequest, what: string): { pid: number; ended: () => void } | undefined;
  /** Starts workers until two are idle, replacing those that died idle; workers that keep dying are given up on. */
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
// Two waiting: a command right after another (a submit, then its inbox) finds one whose node has started, not one
// still starting. Its node costs ~55 MB, and only while some agent is sandboxed.
const IDLE_WORKERS = 2;

/**
 * `org outbox-worker`s started ahead, so a brokered command skips node's start-up and org's load. Each starts as a
 * cold command does: a /bin/sh in its own process group that leaves it to init, recorded in the child records.
 */
export function createWarmWorkers(orgArgv: readonly string[], children: ChildTracker): WarmWorkers {
  // Oldest first: the first handed out is the one longest loaded.
  const idle: Idle[] = [];
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
    idle.push({ pid: child.pid, ticket, input });
  };
  const dropDead = () => {
    for (const worker of idle.filter(({ pid }) => !isAlive(-pid))) {
      worker.ticket.ended(worker.pid);
      idle.splice(idle.indexOf(worker), 1);
      deaths += 1;
    }
  };
  const fill = () => {
    while (!closed && deaths < MAX_IDLE_DEATHS && idle.length < IDLE_WORKERS) start();
  };
  return {
    hand(request, what) {
      dropDead();
      const worker = closed ? undefined : idle.shift();
      if (!worker) return undefined;
      // Its record now says what it runs, as a cold command's does.
      const ticket = children.announce("command", what, true);
      worker.input.end(`${JSON.stringify({ ...request, env: { ...request.env, ...ticket.env } })}\n`);
      ticket.started(worker.pid);
      deaths = 0;
      fill();
      return { pid: worker.pid, ended: () => ticket.ended(worker.pid) };
    },
    ensure() {
      dropDead();
      fill();
    },
    async close() {
      closed = true;
      // Its fd 3 ends with nothing on it: an idle worker then exits by itself; this makes sure.
      await Promise.all(idle.splice(0).map(async (worker) => {
        worker.input.end();
        await killProcessGroup(worker.pid, 1000);
        worker.ticket.ended(worker.pid);
      }));
    },
  };
}
