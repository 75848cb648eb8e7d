import { join } from "node:path";
import { appendNote, formatNote } from "../../domain/messages/notes.js";
import { withLock } from "../fs/lock.js";
import { appendLines, readText, writeFileAtomic } from "../fs/files.js";

/** The shared notes board: state/notes.md, capped, with the overflow in state/notes-archive.md. */
function notesPaths(state: string): { board: string; archive: string; lock: string } {
  return { board: join(state, "notes.md"), archive: join(state, "notes-archive.md"), lock: join(state, "notes.lock") };
}

/** The board's text; undefined while no one noted anything. */
export function readNotes(state: string): Promise<string | undefined> {
  return readText(notesPaths(state).board);
}

/** Append one note under a lock, so two agents noting at once never drop each other's line. */
export async function addNote(
  state: string, author: string, text: string, max: number, now = new Date(),
): Promise<{ count: number; archived: number }> {
  const entry = formatNote(author, text, now);
  const paths = notesPaths(state);
  return withLock(paths.lock, async () => {
    const next = appendNote(await readText(paths.board), entry, max);
    // Archive first: a crash between the two writes duplicates a line rather than losing one.
    await appendLines(paths.archive, next.archived);
    await writeFileAtomic(paths.board, next.board);
    return { count: next.count, archived: next.archived.length };
  });
}
