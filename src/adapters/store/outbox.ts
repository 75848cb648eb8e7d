import { constants, lstatSync } from "node:fs";
import { lstat, mkdtemp, readdir, rename, rm, unlink, writeFile, type FileHandle } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChildTracker } from "../../domain/ports.js";
import { isAlive, killProcessGroup, startChild } from "../process.js";
import { readEntry, type OutboxEntry } from "./outbox-entry.js";
import { openOutboxFile, openOutputs } from "./outbox-files.js";
import type { WarmWorkers } from "./outbox-warm.js";
import { isTracing, recordPhase } from "../trace.js";

/** Requests in an agent's outbox not yet taken: each <id>.ready the shim wrote once its other files were there. */
export async function takeOutboxRequests(outbox: string): Promise<OutboxEntry[]> {
  const names = new Set(await readdir(outbox).catch(() => [] as string[]));
  const taken: OutboxEntry[] = [];
  for (const name of [...names].filter((entry) => entry.endsWith(".ready")).sort()) {
    const id = name.slice(0, -".ready".length);
    if (names.has(`${id}.taken`) || names.has(`${id}.cancel`)) continue;
    const base = join(outbox, id);
    // Marked before it runs, and never through a link: a daemon started again never runs a command twice.
    const marked = await writeFile(`${base}.taken`, "", { flag: "wx" }).then(() => true, () => false);
    if (!marked) continue;
    traceSince(`${base}.ready`, "taken");
    taken.push(await readEntry(base, names.has(`${id}.live`), names.has(`${id}.file`)));
  }
  return taken;
}

interface CommandOptions {
  cwd: string;
  env: Record<string, string>;
  children: ChildTracker;
  agent: string;
  file?: string;
  /** A worker started ahead runs `args` (argv less the start of org) when one is ready and no -f file comes. */
  warm?: { workers: WarmWorkers; args: string[] };
}

interface Started {
  /** Its process group. */
  pid: number;
  ended: () => void;
  /** Our copy of the file its -f names, to remove once it is over. */
  folder?: string;
}

/**
 * Runs `argv` for a request: its output into the request's FIFOs (files under Slurm), its exit status into <id>.status.
 * A subshell runs it, left to init as its /bin/sh exits at once: like a command in the agent's pane it outlives
 * a killed daemon (a submit waits on for its verdict), and its process group, recorded, is what `org down`
 * ends. `file`, when the command's -f is passed, is the name the content gets in a folder of our own, its
 * working folder then.
 */
export async function runOutboxCommand(entry: OutboxEntry, argv: string[], opts: CommandOptions): Promise<Started> {
  const what = `org ${entry.argv[0] ?? ""} for ${opts.agent}`;
  if (opts.warm && opts.file === undefined) {
    const env = { ...definedEnv(), ...opts.env };
    const request = { argv: opts.warm.args, env, cwd: opts.cwd, base: entry.base, local: entry.local };
    const handed = opts.warm.workers.hand(request, what);
    traceSince(`${entry.base}.ready`, handed ? "daemon-handed" : "daemon-cold");
    if (handed) return handed;
  }
  const [out, err, status] = await openOutputs(entry);
  let folder: string | undefined;
  try {
    if (opts.file !== undefined) folder = await writeOwnCopy(opts.file, entry.file ?? Buffer.alloc(0));
    const ticket = opts.children.announce("command", what, true);
    // Its status through a file we made, never a path the agent may have made a link; under Slurm it appears whole.
    const done = entry.local ? "echo $? >&3" : 'echo $? >&3 && mv -T -- "$0.tmp" "$0"';
    const child = startChild(["/bin/sh", "-c", `( "$@" 3>&-; ${done} ) &`, `${entry.base}.status`, ...argv], {
      cwd: folder ?? opts.cwd, env: { ...process.env, ...opts.env, ...ticket.env },
      stdio: ["ignore", out.fd, err.fd, status.fd], detached: true,
    });
    child.on("error", () => ticket.ended(child.pid));
    child.unref();
    if (child.pid === undefined) throw new Error("no process");
    ticket.started(child.pid);
    return { pid: child.pid, ended: () => ticket.ended(child.pid), ...(folder ? { folder } : {}) };
  } catch (error) {
    if (folder) await rm(folder, { recursive: true, force: true });
    throw error;
  } finally {
    await Promise.all([out.close(), err.close(), status.close()]);
  }
}

function definedEnv(): Record<string, string> {
  const defined = (pair: [string, string | undefined]): pair is [string, string] => pair[1] !== undefined;
  return Object.fromEntries(Object.entries(process.env).filter(defined));
}

async function writeOwnCopy(name: string, content: Buffer): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), "org-file-"));
  await writeFile(join(folder, name), content, { flag: "wx", mode: 0o600 });
  return folder;
}

/** A request refused: the reason on its stderr, exit status 2. */
export async function refuseOutboxRequest(entry: OutboxEntry, reason: string): Promise<void> {
  const [out, err, status] = await openOutputs(entry);
  await err.write(`org: ${reason}\n`).catch(() => undefined);
  await status.write("2\n");
  await Promise.all([out.close(), err.close(), status.close()]);
  if (!entry.local) await rename(`${entry.base}.status.tmp`, `${entry.base}.status`);
}

/** Whether a request's command is over (its process group gone), or the shim gave up on it: cancelled or gone. */
export async function checkOutboxCommand(entry: OutboxEntry, pid: number): Promise<"running" | "done" | "abandoned"> {
  if (!isAlive(-pid)) return "done";
  if (await exists(`${entry.base}.cancel`)) return "abandoned";
  return entry.live && (await hasEnded(entry.live)) ? "abandoned" : "running";
}

// Read without waiting: EAGAIN while a writer (the shim) holds it open, end of file once none does.
async function hasEnded(live: FileHandle): Promise<boolean> {
  try {
    return (await live.read(Buffer.alloc(256), 0, 256, null)).bytesRead === 0;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "EAGAIN";
  }
}

/** Ends a command's process group (its leader, /bin/sh, long gone: the group still stands for it). */
export function stopOutboxCommand(pid: number): Promise<void> {
  return killProcessGroup(pid, 1000);
}

/**
 * Once a command's process group is gone: a request whose outputs nothing opened (a warm worker that died first) lets
 * the shim's readers go, or gets an empty status when polled, so the shim ends saying there was no exit status.
 */
export async function releaseOutboxShim(entry: OutboxEntry): Promise<void> {
  // Opened last by whatever opened the outputs: there, the shim has its end of file, or will.
  if (await exists(`${entry.base}.status`)) return;
  if (!entry.local) {
    // Not once the shim has removed its files (.taken too): a status then would be left behind.
    const status = `${entry.base}.status`;
    if (await exists(`${entry.base}.taken`)) await writeFile(status, "", { flag: "wx" }).catch(() => undefined);
    return;
  }
  for (const suffix of [".out", ".err"]) {
    const writer = await openOutboxFile(`${entry.base}${suffix}`, constants.O_WRONLY, "fifo").catch(() => undefined);
    await writer?.close();
  }
}

/** What a request held, let go once it is over: its end of <id>.live, our copy of its file, its files if given up. */
export async function closeOutboxRequest(entry: OutboxEntry, opts: { folder?: string; files: boolean }): Promise<void> {
  await entry.live?.close().catch(() => undefined);
  if (opts.folder) await rm(opts.folder, { recursive: true, force: true });
  if (!opts.files) return;
  const [outbox, id] = [join(entry.base, ".."), entry.base.slice(entry.base.lastIndexOf("/") + 1)];
  const names = await readdir(outbox).catch(() => [] as string[]);
  const mine = names.filter((name) => name.startsWith(`${id}.`));
  await Promise.all(mine.map((name) => unlink(join(outbox, name)).catch(() => undefined)));
}

/**
 * With ORG_TRACE_TIMINGS: how long after the shim's <id>.ready this step of its request came. At once: a warm worker
 * traces from its exit handler too, where nothing asynchronous runs.
 */
export function traceSince(ready: string, phase: string): void {
  if (!isTracing()) return;
  try {
    const info = lstatSync(ready, { throwIfNoEntry: false });
    if (info) recordPhase("outbox", phase, Date.now() - info.mtimeMs);
  } catch {
    // A trace never changes what the command does.
  }
}

function exists(path: string): Promise<boolean> {
  return lstat(path).then(() => true, () => false);
}
