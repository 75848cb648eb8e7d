import { posix } from "node:path";
import type { OrgConfig, Problem } from "../config/index.js";
/** The files of the base commit the agents start from: what every pre-flight check reads instead of the disk. */
export interface BaseTree {
  /** The base as org.yaml names it (main). */
  base: string;
  commit: string;
  /** Every path of the commit's tree, repo-relative with `/`. */
  files: readonly string[];
  /** The paths committed executable (mode 100755), and links. */
  executables: readonly string[];
}

/** What the pre-flight found: problems stop `org up`; warnings are printed and it goes on. */
export interface Findings {
  problems: Problem[];
  warnings: Problem[];
}

/** `base main (1a2b3c4)`: how every finding names what the agents start from. */
export function describeBase(tree: Pick<BaseTree, "base" | "commit">): string {
  const short = tree.commit.slice(0, 7);
  return tree.base === tree.commit || tree.base === short ? `base ${short}` : `base ${tree.base} (${short})`;
}

/** The untracked paths `share:` links or copies into every worktree, repo-relative. */
export function listSharedPaths(config: OrgConfig): string[] {
  const paths = config.share.map((entry) => (typeof entry === "string" ? entry : entry.path));
  return paths.map((path) => posix.normalize(path).replace(/\/+$/, ""));
}

/** Whether `path` is under (or is) one of `folders`. */
export function isUnder(path: string, folders: readonly string[]): boolean {
  return folders.some((folder) => path === folder || path.startsWith(`${folder}/`));
}
