import { readMessageSettings } from "../../domain/messages/mail-port.js";
import { senderName } from "../../domain/messages/wiring.js";
import { listAgents } from "../../domain/lifecycle/plan-agents.js";
import { orgPaths } from "../../domain/paths.js";
import { loadConfigOrThrow } from "../../adapters/store/run-config.js";
import { readText } from "../../adapters/fs/files.js";
import { addOutcome } from "../../adapters/fs/disk-space.js";
import { addNote, notesPaths } from "../../adapters/store/notes-board.js";
import { findCaller } from "../../adapters/identity/find-caller.js";
import type { Io } from "../io.js";

/** `org note "lesson"` adds one line to the shared notes board; `org note` prints the board. */
export async function runNote(opts: { root: string; text?: string }, io: Io): Promise<number> {
  const config = await loadConfigOrThrow(opts.root);
  const state = orgPaths(opts.root).state;
  if (opts.text === undefined) {
    const board = await readText(notesPaths(state).board);
    io.out(board?.replace(/\n$/, "") ?? 'the notes board is empty — add a lesson: org note "what you learned"');
    return 0;
  }
  const author = senderName(await findCaller(opts.root, listAgents(config)));
  const max = readMessageSettings(config).notes_max;
  // addNote archives before it rewrites the board: a failed write leaves the board as it was.
  const { count, archived } = await addNote(state, author, opts.text, max).catch((error: unknown) => addOutcome(error, "your note was not added to the board"));
  io.out(`noted on the board (${count} of ${max} entries)${archived > 0 ? `; the oldest ${archived === 1 ? "entry" : `${archived} entries`} moved to state/notes-archive.md` : ""}`);
  return 0;
}
