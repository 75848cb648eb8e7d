import type { RunResult } from "../process.js";
import { runGit, type GitCall } from "./run.js";
import type { OrgWorktree } from "./worktree-git-dir.js";

/**
 * Settings under which git runs nothing an agent wrote: no fsmonitor, hooks, attributes file, signing program,
 * transport, nor a nested repo's own git (a dirty nested repo would get a `git status` of its own). They come
 * from the command line, so they win over every config file, and git's children inherit them.
 */
const RUN_NOTHING = [
  "core.fsmonitor=false", "core.hooksPath=/dev/null", "core.attributesFile=/dev/null", "protocol.allow=never",
  "diff.ignoreSubmodules=dirty", "submodule.recurse=false", "commit.gpgSign=false",
  "gc.auto=0", "maintenance.auto=false",
];

/**
 * git on an agent's worktree, with the git folders org knows (openOrgWorktree) rather than what its .git, commondir or
 * gitdir files say now: the agent can rewrite every one of them. The config is the repo's own (read-only to agents) and
 * the org's snapshot of the global one; drivers they name (git-lfs's filters) still run, as the user set them.
 */
export function runGitOnWorktree(
  worktree: OrgWorktree, args: string[], call: Omit<GitCall, "cwd" | "env"> = {},
): Promise<RunResult> {
  return runGit(args, {
    ...call,
    cwd: worktree.path,
    config: [...RUN_NOTHING, ...(call.config ?? [])],
    env: {
      GIT_DIR: worktree.gitDir, GIT_COMMON_DIR: worktree.common, GIT_WORK_TREE: worktree.path,
      GIT_INDEX_FILE: undefined, GIT_OBJECT_DIRECTORY: undefined, GIT_ALTERNATE_OBJECT_DIRECTORIES: undefined,
      GIT_NAMESPACE: undefined,
      ...(worktree.globalConfig ? { GIT_CONFIG_GLOBAL: worktree.globalConfig, GIT_CONFIG_NOSYSTEM: "1" } : {}),
    },
  });
}
