import { describeBase, type BaseTree } from "./base-tree.js";

/** One tracked file whose working copy or index differs from HEAD: git status's two letters (` M`, `A `, ` D`). */
export interface DirtyFile {
  path: string;
  status: string;
}

const SHOWN = 8;
const WORDS: Record<string, string> = {
  M: "modified", A: "added", D: "deleted", R: "renamed", C: "copied", T: "type changed", U: "unmerged",
};

/**
 * The warning for uncommitted changes to tracked files: worktrees and the verifier's checkout hold the base commit
 * alone, so an edit made in the repo folder and not committed is silently absent. org's own config files are read
 * from the disk, so their edits count; they are left out here. Undefined when nothing is left out.
 */
export function describeDirty(
  files: readonly DirtyFile[], tree: Pick<BaseTree, "base" | "commit">, ownFiles: readonly string[] = [],
): string | undefined {
  const left = files.filter((file) => !ownFiles.includes(file.path));
  if (left.length === 0) return undefined;
  const word = (file: DirtyFile) => WORDS[file.status.trim().charAt(0)] ?? "changed";
  const named = left.slice(0, SHOWN).map((file) => `${file.path} (${word(file)})`);
  const more = left.length > SHOWN ? ` and ${left.length - SHOWN} more` : "";
  return `uncommitted changes to tracked files are left out: ${named.join(", ")}${more} — the agents and verifier `
    + `start from ${describeBase(tree)} as committed; commit them to ${tree.base} to include them`;
}
