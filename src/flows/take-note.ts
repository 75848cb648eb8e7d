import { readMessageSettings } from "../domain/messages/mail-port.js";
import { senderName } from "../domain/messages/wiring.js";
import { listAgents } from "../domain/lifecycle/plan-agents.js";
import { orgPaths } from "../domain/paths.js";
import { addOutcome } from "../adapters/fs/disk-space.js";
import { findCaller } from "../adapters/identity/find-caller.js";
import { addNote, readNotes } from "../adapters/store/notes-board.js";
import { loadConfigOrThrow } from "../adapters/store/run-config.js";

/** The shared notes board's text; undefined while it is empty. The config is loaded first: a broken one is said. */
export async function readNotesBoard(root: string): Promise<string | undefined> {
  await loadConfigOrThrow(root);
  return readNotes(orgPaths(root).state);
}

/** `org note "lesson"`: one line on the board by the caller; how many entries it holds of `max`, how many moved out. */
export async function addNoteAs(root: string, text: string): Promise<{ count: number; archived: number; max: number }> {
  const config = await loadConfigOrThrow(root);
  const author = senderName(await findCaller(root, listAgents(config)));
  const max = readMessageSettings(config).notes_max;
  // addNote archives before it rewrites the board: a failed write leaves the board as it was.
  const added = await addNote(orgPaths(root).state, author, text, max)
    .catch((error: unknown) => addOutcome(error, "your note was not added to the board"));
  return { ...added, max };
}
