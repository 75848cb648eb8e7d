import { constants } from "node:fs";
import { lstat, open, readdir, realpath, rename, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { OrgError } from "../../domain/errors.js";
import { decideWorktreeGitDir, isHarmlessWorktreeConfig, type RegisteredGitDir } from "../../domain/sandbox/git-dir.js";
import { findGlobalGitConfig } from "./global-config.js";
import { runGit } from "./run.js";

// A .git file or a registry entry is a line; anything bigger is not git's.
const MAX_POINTER_BYTES = 64 * 1024;

/** An agent's worktree as org knows it: its folder, the repo's common git folder, and its own folder in that. */
export interface OrgWorktree {
  path: string;
  common: string;
  gitDir: string;
  /** The org's snapshot of the global (and system) config, read instead of the live ones, which agents may write. */
  globalConfig?: string;
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
  if (result.exitCode !== 0) {
    throw new OrgError(`git rev-parse --git-common-dir in ${repo} failed: ${result.stderr.trim()}`, "git");
  }
  return realpath(resolve(repo, result.stdout.trim()));
}

/**
 * `worktree` of `agent` with the git folder git's registry in the repo gives it. A .git the agent pointed elsewhere is
 * never followed: it is put back (and `say` names the agent), or, when the registry cannot tell, git is not run there.
 */
export async function openOrgWorktree(
  repo: string, worktree: string, agent: string, say: (line: string) => void = () => {}, state?: string,
  registry?: (common: string) => Promise<RegisteredGitDir[]>,
): Promise<OrgWorktree> {
  const common = await readCommonDir(repo);
  // The worktree's own folder is a mount point the agent cannot replace: its real path is org's.
  const path = await realpath(worktree).catch(() => worktree);
  const pointer = await readPlainFile(join(path, ".git"));
  const registered = await (registry ?? readWorktreeRegistry)(common);
  const decision = decideWorktreeGitDir({ worktree: path, common, pointer, registry: registered });
  if (decision.kind === "lost") {
    const fix = "org runs no git there; `org down` then `org up` makes it again";
    throw new OrgError(`${agent}'s worktree: ${decision.reason} — ${fix}`, "git");
  }
  if (decision.kind === "repair") {
    const put = await putFileBack(join(path, ".git"), `gitdir: ${decision.gitDir}\n`);
    const done = put ? "put .git back" : "left .git as it is (not a file)";
    say(`${agent}: ${decision.reason}; org ignored it and ${done}`);
  }
  // The agent's own git follows commondir; org's never does (GIT_COMMON_DIR), but says so and puts it back.
  const commondir = join(decision.gitDir, "commondir");
  const named = await readPlainFile(commondir);
  if (named === undefined || resolve(decision.gitDir, named.trim()) !== common) {
    const put = await putFileBack(commondir, "../..\n");
    const what = `${commondir} names ${named?.trim() ?? "nothing"}, not the repo's ${common}`;
    say(`${agent}: ${what}; org ignored it and ${put ? "put it back" : "left it"}`);
  }
  await setAsideWorktreeConfig(join(decision.gitDir, "config.worktree"), (what) => say(`${agent}: ${what}`));
  const globalConfig = state === undefined ? undefined : await findGlobalGitConfig(state);
  return { path, common, gitDir: decision.gitDir, ...(globalConfig ? { globalConfig } : {}) };
}

/**
 * config.worktree is read by git in this worktree when the repo turns on extensions.worktreeConfig; the sandbox mounts
 * it read-only, but one written before (or a link) may name a filter or an fsmonitor: it is set aside, not read.
 */
async function setAsideWorktreeConfig(config: string, say: (line: string) => void): Promise<void> {
  const info = await lstat(config).catch(() => undefined);
  if (!info) return;
  const text = info.isFile() ? await readPlainFile(config) : undefined;
  if (text !== undefined && isHarmlessWorktreeConfig(text)) return;
  const aside = `${config}.org-set-aside`;
  await rm(aside, { recursive: true, force: true });
  await rename(config, aside);
  await writeFile(config, "", { flag: "wx" }).catch(() => undefined);
  const what = info.isFile() ? "sets more than sparse checkout" : "is not a plain file";
  say(`${config} ${what}; org set it aside as ${aside}, unread`);
}

/** git's registry of the repo's linked worktrees: each one's folder under .git/worktrees and the path it names. */
export async function readWorktreeRegistry(common: string): Promise<RegisteredGitDir[]> {
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
  const flags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
  const handle = await open(path, flags).catch(() => undefined);
  if (!handle) return undefined;
  try {
    const info = await handle.stat();
    return info.isFile() && info.size <= MAX_POINTER_BYTES ? await handle.readFile("utf8") : undefined;
  } finally {
    await handle.close();
  }
}

// A fresh file renamed over `path` (a file or a link the agent made); a folder there is the agent's and stays.
async function putFileBack(path: string, text: string): Promise<boolean> {
  if ((await lstat(path).catch(() => undefined))?.isDirectory()) return false;
  const tmp = `${path}.org-${process.pid}-${Date.now()}`;
  // "wx": a name the agent took (a link among them) is not written through.
  if (!(await writeFile(tmp, text, { flag: "wx" }).then(() => true, () => false))) return false;
  try {
    await rename(tmp, path);
    return true;
  } catch {
    await rm(tmp, { force: true }).catch(() => undefined);
    return false;
  }
}
