import { constants } from "node:fs";
import { lstat, open, readdir, readFile, realpath, writeFile, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import type { ChildTracker } from "../../org/ports.js";
import { isAlive, killProcessGroup, startChild } from "../process.js";

// The shim opens its FIFOs just after it publishes a request: a writer that comes first waits this long for them.
const READER_WAIT_MS = 5000;

/** A request as the shim left it: argv, working folder (symlinks resolved) and the shim's pid, its id. */
export interface OutboxEntry {
  /** The path of its files but for the suffix: <outbox>/<id>. */
  base: string;
  argv: string[];
  cwd: string;
  /** Whom the caller's $ORG_AGENT named ("" when unset): a claim, checked against the outbox's agent by the command. */
  claimed: string;
  shimPid: number;
  /** Its output goes through FIFOs, so the shim runs on this host (not a Slurm node) and its pid means something here. */
  local: boolean;
}

/** Requests in an agent's outbox not yet taken: each <id>.ready the shim wrote once its <id>.argv and <id>.cwd were there. */
export async function takeOutboxRequests(outbox: string): Promise<OutboxEntry[]> {
  const names = new Set(await readdir(outbox).catch(() => [] as string[]));
  const taken: OutboxEntry[] = [];
  for (const name of [...names].filter((entry) => entry.endsWith(".ready")).sort()) {
    const id = name.slice(0, -".ready".length);
    if (names.has(`${id}.taken`) || names.has(`${id}.cancel`)) continue;
    const base = join(outbox, id);
    // Marked before it runs (read meanwhile): a daemon started again never runs a command twice.
    const [, entry] = await Promise.all([writeFile(`${base}.taken`, ""), readEntry(base, id, names.has(`${id}.out`)).catch(() => undefined)]);
    if (entry) taken.push(entry);
  }
  return taken;
}

async function readEntry(base: string, id: string, fifo: boolean): Promise<OutboxEntry> {
  const [argv, cwd, claimed] = await Promise.all([readFile(`${base}.argv`, "utf8"), readFile(`${base}.cwd`, "utf8"), readFile(`${base}.agent`, "utf8").catch(() => "")]);
  return { base, argv: argv.split("\0").slice(0, -1), cwd: await resolvePath(cwd.trim()), claimed, shimPid: Number.parseInt(id, 10), local: fifo };
}

/**
 * Runs `argv` for a request: its output into the request's FIFOs (files under Slurm), its exit status into <id>.status.
 * A subshell runs it, left to init as its /bin/sh exits at once: like a command in the agent's pane it outlives a killed
 * daemon (a submit waits on for its verdict), and its process group, recorded, is what `org down` ends. Returns the group.
 */
export async function runOutboxCommand(entry: OutboxEntry, argv: string[], opts: { cwd: string; env: Record<string, string>; children: ChildTracker; agent: string }): Promise<{ pid: number; ended: () => void } | undefined> {
  const [out, err] = await openOutputs(entry.base);
  const ticket = opts.children.announce("command", `org ${entry.argv[0] ?? ""} for ${opts.agent}`, true);
  try {
    // The shim reads a FIFO request's status after its output ends; a polling one may read it the moment it appears.
    const status = entry.local ? 'echo $? > "$0"' : 'echo $? > "$0.tmp" && mv "$0.tmp" "$0"';
    const child = startChild(["/bin/sh", "-c", `( "$@"; ${status} ) &`, `${entry.base}.status`, ...argv], {
      cwd: opts.cwd, env: { ...process.env, ...opts.env, ...ticket.env }, stdio: ["ignore", out.fd, err.fd], detached: true,
    });
    child.on("error", () => ticket.ended(child.pid));
    child.unref();
    if (child.pid === undefined) return undefined;
    ticket.started(child.pid);
    return { pid: child.pid, ended: () => ticket.ended(child.pid) };
  } finally {
    await Promise.all([out.close(), err.close()]);
  }
}

/** A request refused: the reason on its stderr, exit status 2. */
export async function refuseOutboxRequest(entry: OutboxEntry, reason: string): Promise<void> {
  const [out, err] = await openOutputs(entry.base);
  await err.write(`org: ${reason}\n`).catch(() => undefined);
  await writeFile(`${entry.base}.status`, "2\n");
  await Promise.all([out.close(), err.close()]);
}

/** Whether a request's command is over (its status is written), or the shim gave up on it: cancelled (Ctrl-C) or gone. */
export async function checkOutboxCommand(entry: OutboxEntry): Promise<"running" | "done" | "abandoned"> {
  if (await exists(`${entry.base}.status`)) return "done";
  if (await exists(`${entry.base}.cancel`)) return "abandoned";
  if (!entry.local || isAlive(entry.shimPid)) return "running";
  // The shim removes its files (its .argv before its .status) only once it has read the status: then the command is over.
  return (await exists(`${entry.base}.argv`)) ? "abandoned" : "done";
}

/** Ends a command's process group (its leader, /bin/sh, long gone: the group still stands for it). */
export function stopOutboxCommand(pid: number): Promise<void> {
  return killProcessGroup(pid, 1000);
}

async function openOutputs(base: string): Promise<[FileHandle, FileHandle]> {
  const out = await openOutput(`${base}.out`);
  const err = await openOutput(`${base}.err`).catch(async (error: unknown) => {
    await out.close();
    throw error;
  });
  return [out, err];
}

// A FIFO opened without waiting: ENXIO until the shim's reader is there. A missing one means plain files, polled.
async function openOutput(path: string): Promise<FileHandle> {
  const fifo = await lstat(path).then((info) => info.isFIFO(), () => false);
  if (!fifo) return open(path, "w");
  for (const deadline = Date.now() + READER_WAIT_MS; ; ) {
    try {
      return await open(path, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENXIO" || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }
}

/** `path` with symlinks resolved, or as given when it does not resolve. */
function resolvePath(path: string): Promise<string> {
  return realpath(path).catch(() => path);
}

function exists(path: string): Promise<boolean> {
  return lstat(path).then(() => true, () => false);
}
