import { constants } from "node:fs";
import { lstat, open, readdir, realpath, rename, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { OrgError } from "../../org/errors.js";
import { decideWorktreeGitDir, type RegisteredGitDir } from "../../org/sandbox/git-dir.js";
import { runGit } from "./run.js";

// A .git file or a registry entry is a line; anything bigger is not git's.
const MAX_POINTER_BYTES = 64 * 1024;

/** An agent's worktree as org knows it: its folder, the repo's common git folder, and its own folder in that. */
export interface OrgWorktree {
  path: string;
  common: string;
  gitDir: string;
}

const commons = new Map<string, Promise<string>>();

/** The repo's common git folder: its own .git folder, or what git says for a repo that is itself a linked worktree. */
export function readCommonDir(repo: string): Promise<string> {
  let common = commons.get(repo);
  if (!common) commons.set(repo, (common = findCommonDir(repo)));
  common.catch(() => commons.delete(repo));
  return common;
}

async function findCommonDir(repo: string): Promise<string> {
  const dotGit = join(repo, ".git");
  if ((await lstat(dotGit).catch(() => undefined))?.isDirectory()) return realpath(dotGit);
  const result = await runGit(["rev-parse", "--git-common-dir"], { cwd: repo, timeoutMs: 30_000 });
  if (result.exitCode !== 0) throw new OrgError(`git rev-parse --git-common-dir in ${repo} failed: ${result.stderr.trim()}`, "git");
  return realpath(resolve(repo, result.stdout.trim()));
}

/**
 * `worktree` of `agent` with the git folder git's registry in the repo gives it. A .git the agent pointed elsewhere is
 * never followed: it is put back (and `say` names the agent), or, when the registry cannot tell, git is not run there.
 */
export async function openOrgWorktree(repo: string, worktree: string, agent: string, say: (line: string) => void = () => {}): Promise<OrgWorktree> {
  const common = await readCommonDir(repo);
  // The worktree's own folder is a mount point the agent cannot replace: its real path is org's.
  const path = await realpath(worktree).catch(() => worktree);
  const decision = decideWorktreeGitDir({ worktree: path, common, pointer: await readPlainFile(join(path, ".git")), registry: await readRegistry(common) });
  if (decision.kind === "lost") throw new OrgError(`${agent}'s worktree: ${decision.reason} — org runs no git there; \`org down\` then \`org up\` makes it again`, "git");
  if (decision.kind === "repair") {
    const put = await putPointerBack(path, decision.gitDir);
    say(`${agent}: ${decision.reason}; org ignored it and ${put ? "put .git back" : "left .git as it is (not a file)"}`);
  }
  return { path, common, gitDir: decision.gitDir };
}

async function readRegistry(common: string): Promise<RegisteredGitDir[]> {
  const folder = join(common, "worktrees");
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  return Promise.all(entries.filter((entry) => entry.isDirectory()).map(async (entry) => {
    const dir = join(folder, entry.name);
    const backlink = await readPlainFile(join(dir, "gitdir"));
    return backlink === undefined ? { dir } : { dir, backlink };
  }));
}

/** A small regular file's text, never through a link nor from a FIFO the agent made; undefined otherwise. */
async function readPlainFile(path: string): Promise<string | undefined> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => undefined);
  if (!handle) return undefined;
  try {
    const info = await handle.stat();
    return info.isFile() && info.size <= MAX_POINTER_BYTES ? await handle.readFile("utf8") : undefined;
  } finally {
    await handle.close();
  }
}

// A fresh file renamed over .git (a file or a link the agent made); a folder there is the agent's and stays.
async function putPointerBack(worktree: string, gitDir: string): Promise<boolean> {
  const dotGit = join(worktree, ".git");
  if ((await lstat(dotGit).catch(() => undefined))?.isDirectory()) return false;
  const tmp = `${dotGit}.org-${process.pid}-${Date.now()}`;
  // "wx": a name the agent took (a link among them) is not written through.
  if (!(await writeFile(tmp, `gitdir: ${gitDir}\n`, { flag: "wx" }).then(() => true, () => false))) return false;
  try {
    await rename(tmp, dotGit);
    return true;
  } catch {
    await rm(tmp, { force: true }).catch(() => undefined);
    return false;
  }
}
