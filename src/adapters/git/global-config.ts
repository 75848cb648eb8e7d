import { readFile, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { writeFileAtomic } from "../fs/files.js";

// The user's global git config as it stood when the org's daemon first started: agents may write ~/.gitconfig
// (HOME is theirs).
const SNAPSHOT = "git-global-config";

let pinned: string | undefined;

/**
 * The files git reads before the repo's own config, in its order: the system's (a root agent may write /etc), then
 * $GIT_CONFIG_GLOBAL alone, else XDG's, then ~/.gitconfig (which wins).
 */
function globalConfigFiles(env: NodeJS.ProcessEnv): string[] {
  const system = env.GIT_CONFIG_NOSYSTEM ? [] : [env.GIT_CONFIG_SYSTEM || "/etc/gitconfig"];
  if (env.GIT_CONFIG_GLOBAL) return [...system, env.GIT_CONFIG_GLOBAL];
  const home = env.HOME || homedir();
  return [...system, join(env.XDG_CONFIG_HOME || join(home, ".config"), "git", "config"), join(home, ".gitconfig")];
}

/**
 * state/git-global-config: a copy of the global config (git-lfs's filters and all), taken once per `org up`. A daemon
 * started again for the same org (after a crash, `upAt` unchanged) keeps the copy its first start took, before agents
 * could edit it.
 */
export async function snapshotGlobalGitConfig(
  state: string, upAt: string, env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const file = join(state, SNAPSHOT);
  const taken = await stat(file).then((info) => info.mtimeMs, () => undefined);
  if (taken !== undefined && taken >= Date.parse(upAt)) return file;
  const texts = await Promise.all(globalConfigFiles(env).map((path) => readFile(path, "utf8").catch(() => "")));
  await writeFileAtomic(file, texts.map((text) => (text === "" || text.endsWith("\n") ? text : `${text}\n`)).join(""));
  return file;
}

/** The snapshot `org up`'s daemon took for the org whose state folder is `state`; undefined before it took one. */
export async function findGlobalGitConfig(state: string): Promise<string | undefined> {
  const file = join(state, SNAPSHOT);
  return (await stat(file).then((info) => info.isFile(), () => false)) ? file : undefined;
}

/**
 * From now on, every git call of this process (runGit) reads `file` as the global config; its children are untouched.
 */
export function pinGlobalGitConfig(file: string | undefined): void {
  pinned = file;
}

/**
 * The environment runGit adds for the pinned global config, which holds the system's too: none unless pinned. The
 * outbox broker hands it to an agent's brokered `org`, whose git then reads no ~/.gitconfig the agent edited.
 */
export function pinnedGitEnv(): Record<string, string> {
  return pinned === undefined ? {} : { GIT_CONFIG_GLOBAL: pinned, GIT_CONFIG_NOSYSTEM: "1" };
}
