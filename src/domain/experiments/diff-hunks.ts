const HUNK = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

/**
 * Each line of a unified diff, told apart by its hunk headers' counts (so a removed line reading "--- x" is a line):
 * `onBody` for a line inside a hunk, with its mark (+, - or a space), `onHeader` for every other line. git's
 * "\ No newline at end of file" lines are neither.
 */
export function walkDiffLines(
  diff: string, onBody: (mark: string, line: string) => void, onHeader: (line: string) => void = () => {},
): void {
  let left = { old: 0, new: 0 };
  for (const line of diff.split("\n")) {
    if (left.old > 0 || left.new > 0) {
      if (line.startsWith("\\")) continue;
      const mark = line[0] ?? "";
      if (mark !== "+") left.old--;
      if (mark !== "-") left.new--;
      onBody(mark, line);
      continue;
    }
    onHeader(line);
    const hunk = HUNK.exec(line);
    if (hunk) left = { old: Number(hunk[1] ?? 1), new: Number(hunk[2] ?? 1) };
  }
}
