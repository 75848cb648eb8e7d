import { mkdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { OrgError } from "../org/errors.js";
import { appendNote, formatNote } from "../org/messages/notes.js";
import { appendLines, readText, writeFileAtomic } from "./files.js";

const LOCK_WAIT_MS = 5000;
// A writer holds the lock for milliseconds; one this old was left by a crash.
const LOCK_STALE_MS = 30_000;

/** The shared notes board: state/notes.md, capped, with the overflow in state/notes-archive.md. */
export function notesPaths(state: string): { board: string; archive: string; lock: string } {
  return { board: join(state, "notes.md"), archive: join(state, "notes-archive.md"), lock: join(state, "notes.lock") };
}

/** Append one note under a lock, so two agents noting at once never drop each other's line. */
export async function addNote(state: string, author: string, text: string, max: number, now = new Date()): Promise<{ count: number; archived: number }> {
  const entry = formatNote(author, text, now);
  const paths = notesPaths(state);
  await acquire(paths.lock);
  try {
    const next = appendNote(await readText(paths.board), entry, max);
    // Archive first: a crash between the two writes duplicates a line rather than losing one.
    await appendLines(paths.archive, next.archived);
    await writeFileAtomic(paths.board, next.board);
    return { count: next.count, archived: next.archived.length };
  } finally {
    await rm(paths.lock, { recursive: true, force: true });
  }
}

// mkdir is atomic: exactly one writer creates the folder; contracts reuse it for their signers.
export async function acquire(lock: string): Promise<void> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  await mkdir(join(lock, ".."), { recursive: true });
  for (;;) {
    const taken = await mkdir(lock).then(() => true, (error: NodeJS.ErrnoException) => {
      if (error.code === "EEXIST") return false;
      throw error;
    });
    if (taken) return;
    const age = Date.now() - (await stat(lock).then((info) => info.mtimeMs, () => Date.now()));
    if (age > LOCK_STALE_MS) await rm(lock, { recursive: true, force: true });
    else if (Date.now() > deadline) throw new OrgError(`${lock} is held by another writer — try again; if no org command is running, delete it`, "locked");
    else await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
