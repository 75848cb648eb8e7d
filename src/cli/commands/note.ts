import { addNoteAs, readNotesBoard } from "../../flows/take-note.js";
import type { Io } from "../io.js";

/** `org note "lesson"` adds one line to the shared notes board; `org note` prints the board. */
export async function runNote(opts: { root: string; text?: string }, io: Io): Promise<number> {
  if (opts.text === undefined) {
    const board = await readNotesBoard(opts.root);
    io.out(board?.replace(/\n$/, "") ?? 'the notes board is empty — add a lesson: org note "what you learned"');
    return 0;
  }
  const { count, archived, max } = await addNoteAs(opts.root, opts.text);
  const moved = archived === 1 ? "entry" : `${archived} entries`;
  io.out(
    `noted on the board (${count} of ${max} entries)`
      + (archived > 0 ? `; the oldest ${moved} moved to state/notes-archive.md` : ""),
  );
  return 0;
}
