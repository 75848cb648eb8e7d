import { createReadStream, renameSync, writeSync } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { openOutputs } from "../adapters/store/outbox-files.js";
import type { WarmRequest } from "../adapters/store/outbox-warm.js";
import type { Io } from "./io.js";
import { traceSince } from "../adapters/store/outbox.js";
import { recordPhase } from "../adapters/trace.js";

type Main = (argv: string[], io?: Io) => Promise<number>;

/**
 * A warm worker: org loaded ahead, it waits on fd 3 for one brokered request, then runs it as the daemon's /bin/sh
 * would have started `org` for it: its cwd and environment, stdout and stderr into the request's files (opened as the
 * daemon opens them, never through a link), and its exit status into <id>.status as the shell writes it.
 */
export async function runOutboxWorker(main: Main): Promise<number> {
  const warming = warmUp(process.cwd(), main);
  const request = parseRequest(await readInput(warming.stop));
  // Nothing handed: the daemon stopped, or let this worker go.
  if (!request) return 0;
  const warmCpu = process.cpuUsage();
  traceSince(`${request.base}.ready`, "worker-request");
  const outputs = await openOutputs(request);
  traceSince(`${request.base}.ready`, "worker-handed");
  process.chdir(request.cwd);
  for (const key of Object.keys(process.env)) delete process.env[key];
  Object.assign(process.env, request.env);
  process.argv = [process.argv[0] ?? "node", process.argv[1] ?? "org", ...request.argv];
  redirectOutputs(outputs, request);
  const code = await main(request.argv);
  traceSince(`${request.base}.ready`, "worker-done");
  traceCpu(warmCpu);
  return code;
}

// With ORG_TRACE_TIMINGS: the worker's CPU before its request (node's start, org's load, the warm-up) and for it.
function traceCpu(before: NodeJS.CpuUsage): void {
  const ms = ({ user, system }: NodeJS.CpuUsage) => (user + system) / 1000;
  recordPhase("outbox", "worker-cpu-warm", ms(before));
  recordPhase("outbox", "worker-cpu-request", ms(process.cpuUsage(before)));
}

/**
 * What a brokered submit loads and reads first, done while the worker waits: in a fresh process its modules take
 * ~40 ms, the first parse of org.yaml ~60 ms more, and each first read its code's compile (see warmSubmit). The
 * command line is parsed once too (`org submit --help`, printed nowhere): building org's commands compiles them.
 * Started at once (the daemon starts a worker once the command before it is over) and said on fd 3 when done:
 * the daemon hands its next request to a warm worker first. A request that comes first stops what has not begun.
 */
function warmUp(root: string, main: Main): { stop: () => void } {
  let stopped = false;
  const silent: Io = { out: () => {}, err: () => {} };
  const warm = async () => {
    await main(["submit", "--help"], silent);
    if (stopped) return;
    const [, { warmSubmit }] = await Promise.all([import("./commands/submit.js"), import("../flows/submit-warm.js")]);
    if (!stopped) await warmSubmit(root);
    if (!stopped) writeSync(3, "warm\n");
  };
  const timer = setImmediate(() => void warm().catch(() => undefined));
  return {
    stop: () => {
      stopped = true;
      clearImmediate(timer);
    },
  };
}

// Held to the end: a FileHandle collected would close its fd under the command.
const held: FileHandle[] = [];

function redirectOutputs([out, err, status]: [FileHandle, FileHandle, FileHandle], request: WarmRequest): void {
  held.push(out, err, status);
  process.stdout.write = writeTo(out.fd);
  process.stderr.write = writeTo(err.fd);
  // As node ends with an uncaught error: its stack on stderr, exit status 1.
  process.on("uncaughtException", (error) => {
    writeAll(err.fd, `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
  // `echo $? >&3` once the command is over, whatever ends it; polled requests see the file whole (`mv -T`).
  process.on("exit", (code) => {
    traceSince(`${request.base}.ready`, "worker-exit");
    writeAll(status.fd, `${code}\n`);
    if (!request.local) renameSync(`${request.base}.status.tmp`, `${request.base}.status`);
  });
}

function writeTo(fd: number): typeof process.stdout.write {
  return ((chunk: string | Uint8Array, encoding?: unknown, callback?: unknown) => {
    writeAll(
      fd,
      typeof chunk === "string"
        ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
        : chunk,
    );
    const done = typeof encoding === "function" ? encoding : callback;
    if (typeof done === "function") process.nextTick(done as () => void);
    return true;
  }) as typeof process.stdout.write;
}

const PAUSE = new Int32Array(new SharedArrayBuffer(4));

// Whole and in order, as node's stdout on a pipe writes; the FIFO is non-blocking, so a full one is waited out.
// A reader gone (EPIPE) drops the rest, as it would for the shell's command.
function writeAll(fd: number, data: string | Uint8Array): void {
  let rest = typeof data === "string" ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  while (rest.length > 0) {
    try {
      rest = rest.subarray(writeSync(fd, rest));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN") return;
      Atomics.wait(PAUSE, 0, 0, 1);
    }
  }
}

// fd 3 stays open to the end: its close tells the daemon this command is over (it then starts the next worker).
function readInput(received: () => void): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const input = createReadStream("", { fd: 3, autoClose: false });
    input.on("data", (chunk) => {
      received();
      chunks.push(chunk as Buffer);
    });
    input.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    input.on("error", () => resolve(""));
  });
}

/** The request the daemon wrote, or undefined for nothing (or anything else) on fd 3. */
export function parseRequest(text: string): WarmRequest | undefined {
  if (text.trim() === "") return undefined;
  const value = JSON.parse(text) as Partial<WarmRequest>;
  const strings = (list: unknown) => Array.isArray(list) && list.every((item) => typeof item === "string");
  const valid = strings(value.argv) && typeof value.cwd === "string" && typeof value.base === "string"
    && typeof value.local === "boolean" && typeof value.env === "object" && value.env !== null
    && strings(Object.values(value.env));
  if (!valid) throw new Error("the daemon's request to a warm worker is not as it writes one");
  return value as WarmRequest;
}
