import { constants } from "node:fs";
import { lstat, mkdtemp, readdir, realpath, rename, rm, unlink, writeFile, type FileHandle } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChildTracker } from "../../org/ports.js";
import { isAlive, killProcessGroup, startChild } from "../process.js";
import { openOutboxFile, openOutputs, readOutboxFile } from "./outbox-files.js";

// What a request's files may weigh: an argv, a folder, a name, and the file a -f names (a message, a task, a checklist).
const LIMITS = { argv: 256 * 1024, cwd: 4096, agent: 1024, file: 1024 * 1024 };

/** A request as the shim left it: argv, working folder (symlinks resolved), and what keeps it alive. */
export interface OutboxEntry {
  /** The path of its files but for the suffix: <outbox>/<id>. */
  base: string;
  argv: string[];
  cwd: string;
  /** Whom the caller's $ORG_AGENT named ("" when unset): a claim, checked against the outbox's agent by the command. */
  claimed: string;
  /** The content of the file its -f names, as the shim read it inside the sandbox. */
  file?: Buffer;
  /** Its output goes through FIFOs: the shim runs on this host (not a Slurm node) and holds <id>.live open while it lives. */
  local: boolean;
  /** Our reading end of <id>.live: its end of file is the shim's (killed, or its pane ended; its pid means nothing here). */
  live?: FileHandle;
  /** Why its files cannot be taken as a request (a link, a FIFO, too large): it is refused with that. */
  problem?: string;
}

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
    if (marked) taken.push(await readEntry(base, names.has(`${id}.live`), names.has(`${id}.file`)));
  }
  return taken;
}

async function readEntry(base: string, local: boolean, withFile: boolean): Promise<OutboxEntry> {
  const entry: OutboxEntry = { base, argv: [], cwd: "/", claimed: "", local };
  try {
    const [argv, cwd, claimed, file] = await Promise.all([
      readOutboxFile(`${base}.argv`, LIMITS.argv), readOutboxFile(`${base}.cwd`, LIMITS.cwd),
      readOutboxFile(`${base}.agent`, LIMITS.agent).catch(() => Buffer.alloc(0)), withFile ? readOutboxFile(`${base}.file`, LIMITS.file) : undefined,
    ]);
    Object.assign(entry, { argv: argv.toString("utf8").split("\0").slice(0, -1), cwd: await resolvePath(cwd.toString("utf8").trim()), claimed: claimed.toString("utf8") });
    if (file) entry.file = file;
    if (local) entry.live = await openOutboxFile(`${base}.live`, constants.O_RDONLY | constants.O_NONBLOCK, "fifo");
  } catch (error) {
    entry.problem = `the request in your outbox is not as org's shim writes it (${(error as Error).message}): run org as your PATH has it`;
  }
  return entry;
}

/**
 * Runs `argv` for a request: its output into the request's FIFOs (files under Slurm), its exit status into <id>.status.
 * A subshell runs it, left to init as its /bin/sh exits at once: like a command in the agent's pane it outlives a killed
 * daemon (a submit waits on for its verdict), and its process group, recorded, is what `org down` ends. `file`, when
 * the command's -f is passed, is the name the content gets in a folder of our own, its working folder then.
 */
export async function runOutboxCommand(
  entry: OutboxEntry, argv: string[], opts: { cwd: string; env: Record<string, string>; children: ChildTracker; agent: string; file?: string },
): Promise<{ pid: number; ended: () => void; folder?: string } | undefined> {
  const folder = opts.file === undefined ? undefined : await writeOwnCopy(opts.file, entry.file ?? Buffer.alloc(0));
  const [out, err, status] = await openOutputs(entry);
  const ticket = opts.children.announce("command", `org ${entry.argv[0] ?? ""} for ${opts.agent}`, true);
  try {
    // Its status through a file we made, never a path the agent may have made a link; under Slurm it appears whole.
    const done = entry.local ? "echo $? >&3" : 'echo $? >&3 && mv -T -- "$0.tmp" "$0"';
    const child = startChild(["/bin/sh", "-c", `( "$@" 3>&-; ${done} ) &`, `${entry.base}.status`, ...argv], {
      cwd: folder ?? opts.cwd, env: { ...process.env, ...opts.env, ...ticket.env }, stdio: ["ignore", out.fd, err.fd, status.fd], detached: true,
    });
    child.on("error", () => ticket.ended(child.pid));
    child.unref();
    if (child.pid === undefined) return undefined;
    ticket.started(child.pid);
    return { pid: child.pid, ended: () => ticket.ended(child.pid), ...(folder ? { folder } : {}) };
  } finally {
    await Promise.all([out.close(), err.close(), status.close()]);
  }
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

/** Whether a request's command is over (its process group gone), or the shim gave up on it: cancelled (Ctrl-C) or gone. */
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

/** What a request held, let go once it is over: its end of <id>.live, our copy of its file, and (given up) its files. */
export async function closeOutboxRequest(entry: OutboxEntry, opts: { folder?: string; files: boolean }): Promise<void> {
  await entry.live?.close().catch(() => undefined);
  if (opts.folder) await rm(opts.folder, { recursive: true, force: true });
  if (!opts.files) return;
  const [outbox, id] = [join(entry.base, ".."), entry.base.slice(entry.base.lastIndexOf("/") + 1)];
  const names = await readdir(outbox).catch(() => [] as string[]);
  await Promise.all(names.filter((name) => name.startsWith(`${id}.`)).map((name) => unlink(join(outbox, name)).catch(() => undefined)));
}

/** `path` with symlinks resolved, or as given when it does not resolve. */
function resolvePath(path: string): Promise<string> {
  return realpath(path).catch(() => path);
}

function exists(path: string): Promise<boolean> {
  return lstat(path).then(() => true, () => false);
}
