import { walkDiffLines } from "./diff-hunks.js";

/** Lines a change adds and removes, as `git diff --numstat` sums them (a binary file adds none). */
export interface DiffLines {
  added: number;
  removed: number;
}

const INDEX = /^index ([0-9a-f]+)\.\.([0-9a-f]+)/;

interface FileLines extends DiffLines {
  from: string;
  to: string;
}

/**
 * The line counts of a `git diff --full-index --no-renames` (as latin1 text: a byte a character, so any encoding
 * splits into the same lines). Hunks are read by their header's counts, so a removed line reading "--- x" is a line.
 * A file deleted and added again with the same blob is a rename, counted as numstat's rename detection does: 0 and 0.
 */
export function countDiffLines(diff: string): DiffLines {
  const files: FileLines[] = [];
  let file: FileLines | undefined;
  // A hunk before any file header (not git's output) counts nowhere.
  const countLine = (mark: string) => {
    if (file && mark === "+") file.added++;
    if (file && mark === "-") file.removed++;
  };
  walkDiffLines(diff, countLine, (line) => {
    if (line.startsWith("diff --git ")) files.push((file = { added: 0, removed: 0, from: "", to: "" }));
    const index = file && INDEX.exec(line);
    if (index) Object.assign(file!, { from: index[1], to: index[2] });
  });
  return sumLines(files);
}

function sumLines(files: FileLines[]): DiffLines {
  const none = (blob: string) => /^0+$/.test(blob);
  const added = new Map<string, FileLines[]>();
  for (const file of files) if (none(file.from)) added.set(file.to, [...(added.get(file.to) ?? []), file]);
  for (const file of files) {
    if (!none(file.to) || none(file.from)) continue;
    const twin = added.get(file.from)?.pop();
    if (!twin) continue;
    file.added = file.removed = twin.added = twin.removed = 0;
  }
  return files.reduce((sum, file) => ({ added: sum.added + file.added, removed: sum.removed + file.removed }),
    { added: 0, removed: 0 });
}
