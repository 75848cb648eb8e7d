import { constants } from "node:fs";
import { lstat, open, readdir, readFile, realpath, writeFile, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { isAlive, killProcessGroup, startChild } from "../process.js";

// The shim opens its FIFOs just after it publishes a request: a writer that comes first waits this long for them.
const READER_WAIT_MS = 5000;

/** A request as the shim left it: argv, working folder (symlinks resolved) and the shim's pid. */
export interface OutboxEntry {
  id: string;
  dir: string;
  argv: string[];
  cwd: string;
  shimPid: number;
  /** Its output goes through FIFOs, so the shim runs on this host (not a Slurm node) and its pid means something here. */
  local: boolean;
}

/** Requests in an agent's outbox not yet taken: folders the shim renamed into place (a dot marks one being written). */
export async function takeOutboxRequests(outbox: string): Promise<OutboxEntry[]> {
  const names = await readdir(outbox).catch(() => [] as string[]);
  const taken: OutboxEntry[] = [];
  for (const id of names.filter((name) => !name.startsWith(".")).sort()) {
    const dir = join(outbox, id);
    if (await exists(join(dir, "taken")) || await exists(join(dir, "cancel"))) continue;
    // Marked before it runs: a daemon started again never runs a command twice.
    await writeFile(join(dir, "taken"), "");
    const entry = await readEntry(id, dir).catch(() => undefined);
    if (entry) taken.push(entry);
  }
  return taken;
}

async function readEntry(id: string, dir: string): Promise<OutboxEntry> {
  const [argv, cwd, pid] = await Promise.all(["argv", "cwd", "pid"].map((file) => readFile(join(dir, file), "utf8")));
  const local = await lstat(join(dir, "out")).then((info) => info.isFIFO(), () => false);
  return { id, dir, argv: argv!.split("\0").slice(0, -1), cwd: await resolvePath(cwd!.trim()), shimPid: Number(pid), local };
}

/** Runs `argv` for a request: its output into the request's FIFOs (files under Slurm), its exit status into `status` by /bin/sh. */
export async function runOutboxCommand(entry: OutboxEntry, argv: string[], opts: { cwd: string; env: Record<string, string> }): Promise<number | undefined> {
  const [out, err] = await openOutputs(entry.dir);
  try {
    const script = '"$@"; code=$?; echo $code > "$0.tmp" && mv "$0.tmp" "$0"';
    const child = startChild(["/bin/sh", "-c", script, join(entry.dir, "status"), ...argv], {
      cwd: opts.cwd, env: { ...process.env, ...opts.env }, stdio: ["ignore", out.fd, err.fd], detached: true,
    });
    child.on("error", () => undefined);
    child.unref();
    return child.pid;
  } finally {
    await Promise.all([out.close(), err.close()]);
  }
}

/** A request refused: the reason on its stderr, exit status 2. */
export async function refuseOutboxRequest(entry: OutboxEntry, reason: string): Promise<void> {
  const [out, err] = await openOutputs(entry.dir);
  await err.write(`org: ${reason}\n`).catch(() => undefined);
  await writeFile(join(entry.dir, "status"), "2\n");
  await Promise.all([out.close(), err.close()]);
}

/** Whether a request's command is over (its status is written), or the shim gave up on it: cancelled (Ctrl-C) or gone. */
export async function checkOutboxCommand(entry: OutboxEntry): Promise<"running" | "done" | "abandoned"> {
  if (await exists(join(entry.dir, "status"))) return "done";
  return (await exists(join(entry.dir, "cancel"))) || (entry.local && !isAlive(entry.shimPid)) ? "abandoned" : "running";
}

export function stopOutboxCommand(pid: number): Promise<void> {
  return killProcessGroup(pid, 1000);
}

async function openOutputs(dir: string): Promise<[FileHandle, FileHandle]> {
  const out = await openOutput(join(dir, "out"));
  const err = await openOutput(join(dir, "err")).catch(async (error: unknown) => {
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
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}

/** `path` with symlinks resolved, or as given when it does not resolve. */
export function resolvePath(path: string): Promise<string> {
  return realpath(path).catch(() => path);
}

function exists(path: string): Promise<boolean> {
  return lstat(path).then(() => true, () => false);
}
