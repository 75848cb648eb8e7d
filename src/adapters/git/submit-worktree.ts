import { OrgError } from "../../domain/errors.js";
import type { GitAnswer } from "../../domain/experiments/submit-git.js";
import { describeDiskFull } from "../fs/disk-space.js";
import { commitOnto, type CommitOnto, type MoveRef } from "./commit-onto.js";
import { moveRefFile } from "./ref-file.js";
import { runGitOnWorktree } from "./worktree-git.js";
import { readHeadRef } from "./worktree-head.js";
import type { OrgWorktree } from "./worktree-git-dir.js";

/** The index as `git add --all` left it: its tree (or why git could not write it), HEAD, HEAD's tree and own ref. */
export interface StagedIndex {
  tree: GitAnswer;
  head: string;
  headTree: string | undefined;
  symbolic: GitAnswer;
}

/** git as `org submit` runs it in an agent's worktree; what to make of each answer is the submit flow's. */
export interface SubmitGit {
  /** `git add --all`, then the index read in one round; a full disk is an error, never "nothing staged". */
  stageAll(): Promise<StagedIndex>;
  /** Put the worktree back as it was: unstage what stageAll staged. */
  unstage(): Promise<void>;
  /** The index as a commit on `before`, on `ref` only if it still points there (see commitOnto). */
  commit(before: string, message: string, ref: string, tree?: string): Promise<CommitOnto>;
  /** A commit's subject line. */
  readSubject(commit: string): Promise<string>;
  isAncestor(ancestor: string, commit: string): Promise<boolean>;
}

/** git on an agent's worktree as org knows it (openOrgWorktree), with an identity when the repo has none. */
export function openSubmitGit(worktree: OrgWorktree): SubmitGit {
  const git = (args: string[], config: string[] = []) => runGitOnWorktree(worktree, args, { config });
  // The identity git would use, taken from its config (or environment) alone: it never guesses one from the host.
  const strict = (args: string[]) => git(args, args[0] === "commit-tree" ? ["user.useConfigOnly=true"] : []);
  // Written by org, not git (reftable aside): git would append its reflog line through a link the agent put there.
  const move: MoveRef = async (ref, commit, before) => {
    const top = ref === "HEAD" ? worktree.gitDir : worktree.common;
    const moved = await moveRefFile({ top, common: worktree.common, ref, commit, from: before });
    if (moved) return moved.kind === "moved";
    const args = ["update-ref", "--no-deref", "-m", `commit: ${commit.slice(0, 7)}`, ref, commit, before];
    return (await git(args)).exitCode === 0;
  };
  return {
    stageAll: async () => {
      // HEAD, its tree and its own ref are read while `add` stages: none reads the index, the one file `add` writes.
      const [added, heads, symbolic] = await Promise.all([
        git(["add", "--all"]), git(["rev-parse", "HEAD", "HEAD^{tree}"]), readHeadRef(worktree),
      ]);
      // Without this a full disk would read as "nothing to submit": git staged nothing, it could not write its index.
      if (added.exitCode !== 0 && /no space left|quota exceeded/i.test(added.stderr)) {
        const what = `git could not stage your changes in ${worktree.path}`;
        throw new OrgError(`${await describeDiskFull(worktree.path, { what })}; nothing was committed`, "disk-full");
      }
      const tree = await git(["write-tree"]);
      const [head = "", headTree] = heads.stdout.trim().split("\n");
      return { tree, head, headTree, symbolic };
    },
    unstage: async () => void (await git(["reset", "--quiet"])),
    commit: (before, message, ref, tree) => commitOnto(strict, move, before, message, ref, tree).catch(async (err) => {
      // No identity configured: as before, org's when the repo names nobody (commit-tree failed: nothing moved).
      if (!NO_IDENTITY.test((err as Error).message)) throw err;
      const identity = await readIdentity(git);
      return commitOnto((args) => git(args, identity), move, before, message, ref, tree);
    }),
    readSubject: async (commit) => (await git(["log", "-1", "--format=%s", commit])).stdout.trim(),
    isAncestor: async (ancestor, commit) =>
      (await git(["merge-base", "--is-ancestor", ancestor, commit])).exitCode === 0,
  };
}

// What git says when user.useConfigOnly finds no name or email (or none can be made at all).
const NO_IDENTITY = /auto-detection is disabled|Please tell me who you are|unable to auto-detect/;

// A research repo on a fresh machine may have no git identity; the agent's commits still need one.
async function readIdentity(git: (args: string[]) => Promise<GitAnswer>): Promise<string[]> {
  const name = await git(["config", "user.name"]);
  if (name.exitCode === 0 && name.stdout.trim() !== "") return [];
  return ["user.name=org agent", "user.email=agent@org.invalid"];
}
