// The daemon's moves of an agent's refs (its branch, a detached HEAD), written as git's files backend writes a ref
// but without its reflog: git appends a log line through whatever link it finds at the log, and the agent writes the
// folders of those logs (the org's branches', its worktree's logs/), so its commit subject would land in any file of
// the daemon's choosing by the agent (a shell's rc file, say).
import { constants } from "node:fs";
import { lstat, open, readFile, rename, rm, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { placeUntrusted } from "../fs/untrusted.js";

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK } = constants;
// git holds a ref's lock for the few milliseconds of one write: one this old was left by a process killed holding it
// (a daemon killed mid-move, an agent's git killed mid-commit), and would refuse every move of that ref for good.
export const STALE_LOCK_MS = 10_000;

/** How a move ended: made, or refused with git's words for why (another lock held, the ref moved meanwhile). */
export type RefMove = { kind: "moved" } | { kind: "refused"; reason: string };

/**
 * Points `ref` (below `top`: the common git folder for `refs/heads/…`, a worktree's git folder for its `HEAD`) at
 * `commit`, only if it is at `from` when that is given: `<ref>.lock` made exclusively, checked, renamed over the ref,
 * no link followed. Undefined for a repo that keeps its refs in reftable: git's update-ref writes those.
 */
export async function moveRefFile(input: { top: string; common: string; ref: string; commit: string; from?: string })
  : Promise<RefMove | undefined> {
  const { top, common, ref, commit, from } = input;
  if (await lstat(join(common, "reftable")).then(() => true, () => false)) return undefined;
  let result: RefMove = { kind: "moved" };
  await placeUntrusted(top, join(top, ref), async (at) => {
    const lock = await takeLock(`${at}.lock`);
    if (lock) result = await writeLocked(lock, at, { common, ref, commit, from });
    else result = { kind: "refused", reason: `cannot lock ref '${ref}': '${join(top, ref)}.lock' exists` };
  });
  return result;
}

// The lock made exclusively; one held too long to be live is removed (unlinked, never followed) and taken again once.
async function takeLock(path: string): Promise<FileHandle | undefined> {
  const take = () => open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o644)
    .catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
      return undefined;
    });
  const lock = await take();
  if (lock) return lock;
  const held = await lstat(path).catch(() => undefined);
  if (held && Date.now() - held.mtimeMs < STALE_LOCK_MS) return undefined;
  // A folder in its place is no lock git left: it stays, and the move is refused.
  if (!(await rm(path, { force: true }).then(() => true, () => false))) return undefined;
  return take();
}

async function writeLocked(lock: FileHandle, at: string, input: { common: string; ref: string; commit: string;
  from?: string }): Promise<RefMove> {
  let renamed = false;
  try {
    const current = input.from === undefined ? undefined : await readRefAt(at, input.common, input.ref);
    if (input.from !== undefined && current !== input.from) {
      const reason = `cannot lock ref '${input.ref}': is at ${current ?? "nothing"} but expected ${input.from}`;
      return { kind: "refused", reason };
    }
    await lock.writeFile(`${input.commit}\n`);
    await lock.close();
    await rename(`${at}.lock`, at);
    renamed = true;
    return { kind: "moved" };
  } finally {
    await lock.close().catch(() => undefined);
    if (!renamed) await rm(`${at}.lock`, { force: true });
  }
}

// What the ref says now, as git's old-value check reads it: its loose file (a link is no commit; a symbolic ref, one
// the agent made, is followed to its commit), else its line in packed-refs.
async function readRefAt(at: string, common: string, ref: string, depth = 0): Promise<string | undefined> {
  const handle = await open(at, O_RDONLY | O_NOFOLLOW | O_NONBLOCK).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    if (error.code === "ELOOP") return "a link";
    throw error;
  });
  if (handle === "a link") return handle;
  if (!handle) {
    const packed = await readFile(join(common, "packed-refs"), "utf8").catch(() => "");
    return packed.split("\n").find((entry) => entry.endsWith(` ${ref}`))?.split(" ")[0];
  }
  let text: string;
  try {
    // A ref is one line: a file of any other kind or size (a FIFO, a disk's worth) is not read.
    const info = await handle.stat();
    text = info.isFile() && info.size <= 4096 ? (await handle.readFile("utf8")).trim() : "not a ref file";
  } finally {
    await handle.close();
  }
  const target = /^ref: (refs\/\S+)$/.exec(text)?.[1];
  if (!target || target.split("/").includes("..") || depth >= 5) return text;
  return readRefAt(join(common, target), common, target, depth + 1);
}
