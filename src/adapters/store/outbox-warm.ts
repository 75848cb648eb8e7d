import type { Duplex } from "node:stream";
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
  /**
   * Starts workers one at a time until two are idle, four once a command was handed (none in the pool's first seconds
   * unless one was); replaces those that died idle; gives up if they keep dying.
   */
  ensure(): void;
  /** The idle workers, oldest first: each one's process group and whether it said it is warm. */
  listIdle(): { pid: number; warm: boolean }[];
  close(): Promise<void>;
}

interface Idle {
  pid: number;
  ticket: ChildTicket;
  /** fd 3: the request goes down it; up it comes "warm" (its warm-up done), and its close is the worker's end. */
  channel: Duplex;
  warm: boolean;
  startedAt: number;
}

// Workers that died idle in a row before the rest run cold: a broken install must not restart one every second.
const MAX_IDLE_DEATHS = 3;
// Four waiting once the org has brokered a command: quick commands one after another (the bench's five submits) each
// find one warm, while those handed before are replaced one at a time. Each costs ~18 MB of its own (node's ~40 MB of
// code is shared) and a node's start, so an org whose agents have not run `org` yet keeps two (the bench's quick
// submits on a new org find the second warm as well).
const IDLE_WORKERS = 4;
const IDLE_BEFORE_USE = 2;
// One starts at a time, the next once it says it is warm (or this long after its start, if it never does): nodes
// starting side by side slow one another, and the command running beside them.
const BOOT_MS = 2000;
// None starts in the org's first seconds, unless a command is brokered then: that is when every agent's CLI starts at
// once (node, bun, a Rust binary each), and no agent runs `org` before its CLI is up and its model has answered.
const START_AFTER_MS = 5000;
// A worker handed a command is replaced once that command is over, not while it runs: a node starting beside it
// takes a core from it. A command still running after this long (`org wait`) gets its replacement anyway.
const REPLACE_AFTER_MS = 500;

/**
 * `org outbox-worker`s started ahead, so a brokered command skips node's start-up and org's load. Each starts as a
 * cold command does: a /bin/sh in its own process group that leaves it to init, recorded in the child records.
 */
export function createWarmWorkers(
  orgArgv: readonly string[], children: ChildTracker,
  { idleBeforeUse = IDLE_BEFORE_USE, startAfterMs = START_AFTER_MS } = {},
): WarmWorkers {
  const startsAt = Date.now() + startAfterMs;
  let waiting: NodeJS.Timeout | undefined;
  // Oldest first: the first handed out is the one longest loaded.
  const idle: Idle[] = [];
  let used = false;
  // Handed workers whose commands still run: their replacements start when they end.
  let running = 0;
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
    const channel = child.stdio[3] as Duplex | null;
    if (child.pid === undefined || !channel) return ticket.ended(child.pid);
    // A worker gone leaves its pipe broken: the next look replaces it.
    channel.on("error", () => undefined);
    (channel as Duplex & { unref?: () => void }).unref?.();
    ticket.started(child.pid);
    const worker: Idle = { pid: child.pid, ticket, channel, warm: false, startedAt: Date.now() };
    channel.on("data", () => {
      worker.warm = true;
      fill();
    });
    fillOnceBooted(worker);
    idle.push(worker);
  };
  const isBooting = (worker: Idle) => !worker.warm && Date.now() - worker.startedAt < BOOT_MS;
  // A timer counts from the loop's cached clock, which a slow spawn leaves behind Date.now(): it may fire while the
  // worker still counts as booting, so it looks again then rather than never.
  const fillOnceBooted = (worker: Idle) => {
    const left = BOOT_MS - (Date.now() - worker.startedAt);
    setTimeout(() => (isBooting(worker) ? fillOnceBooted(worker) : fill()), Math.max(left, 0) + 1).unref();
  };
  const dropDead = () => {
    for (const worker of idle.filter(({ pid }) => !isAlive(-pid))) {
      worker.ticket.ended(worker.pid);
      idle.splice(idle.indexOf(worker), 1);
      deaths += 1;
    }
  };
  // One always waits, starting if need be: a booting worker still beats a cold start.
  function fill(): void {
    if (closed || deaths >= MAX_IDLE_DEATHS || idle.some(isBooting)) return;
    if (!used && Date.now() < startsAt) {
      waiting ??= setTimeout(() => {
        waiting = undefined;
        fill();
      }, startsAt - Date.now() + 1).unref();
      return;
    }
    if (idle.length < Math.max(1, (used ? IDLE_WORKERS : idleBeforeUse) - running)) start();
  }
  const replaceLater = (worker: Idle) => {
    running += 1;
    let done = false;
    const replace = () => {
      if (done) return;
      done = true;
      running -= 1;
      fill();
    };
    worker.channel.once("close", replace);
    setTimeout(replace, REPLACE_AFTER_MS).unref();
  };
  return {
    hand(request, what) {
      dropDead();
      // A warm one first, the longest loaded; else the oldest, its node furthest on.
      const worker = closed ? undefined : (idle.find(({ warm }) => warm) ?? idle[0]);
      // The org brokers commands now: the broker's next look starts workers, even in the org's first seconds.
      used = true;
      if (!worker) return undefined;
      idle.splice(idle.indexOf(worker), 1);
      // Its record now says what it runs, as a cold command's does.
      const ticket = children.announce("command", what, true);
      worker.channel.end(`${JSON.stringify({ ...request, env: { ...request.env, ...ticket.env } })}\n`);
      ticket.started(worker.pid);
      deaths = 0;
      replaceLater(worker);
      fill();
      return { pid: worker.pid, ended: () => ticket.ended(worker.pid) };
    },
    ensure() {
      dropDead();
      fill();
    },
    listIdle: () => idle.map(({ pid, warm }) => ({ pid, warm })),
    async close() {
      closed = true;
      clearTimeout(waiting);
      // Its fd 3 ends with nothing on it: an idle worker then exits by itself; this makes sure.
      await Promise.all(idle.splice(0).map(async (worker) => {
        worker.channel.end();
        await killProcessGroup(worker.pid, 1000);
        worker.ticket.ended(worker.pid);
      }));
    },
  };
}
