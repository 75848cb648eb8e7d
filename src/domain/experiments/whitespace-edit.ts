import { walkDiffLines } from "./diff-hunks.js";

// More than `git diff -w` ignores (space, tab, CR, LF): lines equal here may differ to git, never the reverse.
const SPACE = /\s/g;

/**
 * Whether `git diff -w --ignore-blank-lines` of the same commits surely prints something, read off the full diff
 * (latin1 text, as countDiffLines reads it): its removed and added lines, whitespace dropped and blank ones left out,
 * differ as multisets. A diff that -w shows as empty has equal ones (every non-blank line is matched), so true is
 * certain; false only means git must tell (whitespace alone, moved lines, a mode, a binary file).
 */
export function hasNonWhitespaceEdit(diff: string): boolean {
  const counts = new Map<string, number>();
  walkDiffLines(diff, (mark, line) => {
    const text = line.slice(1).replace(SPACE, "");
    if ((mark !== "+" && mark !== "-") || text === "") return;
    counts.set(text, (counts.get(text) ?? 0) + (mark === "+" ? 1 : -1));
  });
  return [...counts.values()].some((count) => count !== 0);
}
