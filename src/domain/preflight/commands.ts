// The agent and verify commands' repo paths against the base commit: worktrees and the verifier's checkout hold
// exactly the commit, so a script left uncommitted (or misnamed) only shows up as a crash once the org runs.
import { posix } from "node:path";
import { findClosest, formatPath, type OrgConfig, type Problem } from "../config/index.js";
import { describeBase, isUnder, listSharedPaths, type BaseTree, type Findings } from "./base-tree.js";

/** One element of a command that names a file of the repo. */
export interface CommandPath {
  path: (string | number)[];
  element: string;
  /** Repo-relative, normalized. */
  file: string;
  /** The program itself (argv[0]): it must be a committed, executable file. */
  program: boolean;
  who: "agents' worktrees" | "verifier's checkouts";
}

const PATHLIKE = /^[\w.@+-]+(?:\/[\w.@+-]+)*\/?$/;
const SCRIPT = /\.(?:py|mjs|cjs|js|ts|sh|bash|rb|pl|r|jl|lua)$/i;

/** The command elements that may name repo files: a relative program with a `/`, or an argument like one. */
export function listCommandPaths(config: OrgConfig): CommandPath[] {
  const found: CommandPath[] = [];
  const used = new Set(Object.values(config.roles).map((role) => role.runtime));
  for (const name of used) {
    const runtime = config.runtimes[name];
    if (!runtime || runtime.builtin) continue;
    const who = "agents' worktrees" as const;
    if (runtime.program !== undefined) {
      found.push(...toCommandPath(["runtimes", name, "program"], runtime.program, true, who));
    }
    for (const [index, element] of (runtime.command ?? []).entries()) {
      if (index === 0 && runtime.program !== undefined) continue;
      found.push(...toCommandPath(["runtimes", name, "command", index], element, index === 0, who));
    }
  }
  for (const [index, element] of (config.verify?.command ?? []).entries()) {
    found.push(...toCommandPath(["verify", "command", index], element, index === 0, "verifier's checkouts"));
  }
  return found;
}

/**
 * Each repo path must be in the commit (a program as an executable file), unless `share:` brings it. An argument is
 * only taken for a path when it looks like a script or is a file in the repo folder (`openai/gpt-5` is a model name).
 */
export function checkCommands(config: OrgConfig, tree: BaseTree, onDisk: ReadonlySet<string>): Findings {
  const problems: Problem[] = [];
  const shared = listSharedPaths(config);
  const where = describeBase(tree);
  for (const entry of listCommandPaths(config)) {
    if (isUnder(entry.file, shared)) continue;
    const label = `${formatPath(entry.path)} "${entry.element}"`;
    const committed = entry.program ? tree.files.includes(entry.file) : inTree(tree, entry.file);
    if (committed) {
      if (entry.program && !tree.executables.includes(entry.file)) {
        const fix = `git update-index --chmod=+x ${entry.file}, then commit`;
        problems.push({ path: entry.path, message: `${label} is not executable at ${where}`, fix });
      }
      continue;
    }
    // An agent program on no disk at all is findMissingPrograms' to say, with its install command.
    if (entry.program && entry.who === "agents' worktrees" && !onDisk.has(entry.file)) continue;
    if (onDisk.has(entry.file)) {
      const fix = `commit it (git add ${entry.file} && git commit), or list it under share:`;
      const message = `${label} is in the repo folder but not at ${where}, which the ${entry.who} hold`;
      problems.push({ path: entry.path, message, fix });
    } else if (entry.program || SCRIPT.test(entry.file)) {
      const closest = findClosest(entry.file, tree.files);
      const fix = closest !== undefined ? `did you mean "${closest}"?` : "fix the path (repo-relative), or commit it";
      problems.push({ path: entry.path, message: `${label} does not exist at ${where}`, fix });
    }
  }
  return { problems, warnings: [] };
}

function toCommandPath(
  path: (string | number)[], element: string, program: boolean, who: CommandPath["who"],
): CommandPath[] {
  // A bare program is looked up on PATH; only one with a `/` is a file of the repo.
  if (program && !element.includes("/")) return [];
  if (element.startsWith("-") || !PATHLIKE.test(element) || posix.isAbsolute(element)) return [];
  const file = posix.normalize(element).replace(/\/+$/, "");
  if (file === "." || file === ".." || file.startsWith("../")) return [];
  if (!program && !element.includes("/") && !SCRIPT.test(element)) return [];
  return [{ path, element, file, program, who }];
}

function inTree(tree: BaseTree, file: string): boolean {
  return tree.files.some((path) => path === file || path.startsWith(`${file}/`));
}
