import { OrgError } from "../errors.js";
import { cleanLine } from "../safe-text.js";

/** The longest note: a lesson is one line; details belong in a file. */
const NOTE_MAX_CHARS = 300;

const HEADER = `# Notes board

Lessons learned and ideas that failed, newest last. Everyone reads it; add one line with
\`org note "what you learned"\`. The oldest entries move to notes-archive.md.

`;

/** One board entry: `- 2026-01-07 10:15 researcher-2: warmup longer than 5% never helped`. */
export function formatNote(author: string, text: string, now: Date): string {
  const line = cleanLine(text).replace(/\s+/g, " ").trim();
  if (line === "") throw new OrgError('the note is empty — write the lesson: org note "what you learned"', "note");
  if (line.length > NOTE_MAX_CHARS) {
    throw new OrgError(
      `the note is ${line.length} characters, over ${NOTE_MAX_CHARS} — keep it to one short line; `
        + `put details in a file and note its path`,
      "note",
    );
  }
  return `- ${now.toISOString().slice(0, 16).replace("T", " ")} ${author}: ${line}`;
}

/** The board with `entry` appended, and the oldest entries that no longer fit under `max`. */
export function appendNote(board: string | undefined, entry: string, max: number): {
  board: string; archived: string[]; count: number;
} {
  const entries = (board ?? "").split("\n").filter((line) => line.startsWith("- "));
  entries.push(entry);
  const archived = entries.splice(0, Math.max(0, entries.length - max));
  return { board: `${HEADER}${entries.join("\n")}\n`, archived, count: entries.length };
}
