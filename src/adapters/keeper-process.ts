import { closeSync, openSync, readFileSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DAEMON_SECRETS_VAR, parseKeeperRecord, type KeeperRecord } from "../domain/lifecycle/keeper-rules.js";
import { filterAgentEnv, pickEnv } from "../domain/lifecycle/secrets.js";
import { pathExists, PRIVATE_DIR, readJson, readText, writeJsonAtomic } from "./fs/files.js";
import { tryLock } from "./fs/lock.js";
import { isRunningProcess, killProcessGroup, startChild } from "./process.js";

/** The keeper's files in state/: its record, its lock (its pid), its log, and the mark `org down` leaves. */
export function keeperPaths(state: string): { record: string; lock: string; log: string; stop: string } {
  const file = (name: string) => join(state, name);
  return { record: file("keeper.json"), lock: file("keeper.lock"), log: file("keeper.log"), stop: file("keeper.stop") };
}

/** The pid in keeper.lock, if that process still runs and is this org's keeper (a reused pid is not). */
export async function findRunningKeeper(root: string, state: string): Promise<number | undefined> {
  const pid = Number((await readText(keeperPaths(state).lock).catch(() => undefined))?.trim());
  return Number.isInteger(pid) && pid > 0 && isKeeperProcess(pid, root) ? pid : undefined;
}

/** keeper.lock for this process, unless a keeper runs: one keeper per org. */
export async function takeKeeperLock(root: string, state: string): Promise<boolean> {
  if ((await findRunningKeeper(root, state)) !== undefined) return false;
  // A lock naming no running keeper (a dead one, or a pid reused since) is stale, whatever tryLock's probe says.
  await rm(keeperPaths(state).lock, { force: true });
  return tryLock(keeperPaths(state).lock);
}

/**
 * state/keeper.json, this module's alone; undefined when missing, unreadable or of another shape: its counts are
 * for the views, and a keeper that refused to start over a damaged record would leave a dead daemon down.
 */
export async function readKeeperRecord(state: string): Promise<KeeperRecord | undefined> {
  return parseKeeperRecord(await readJson(keeperPaths(state).record).catch(() => undefined));
}

/** Written whole or not at all, by the keeper alone. */
export async function writeKeeperRecord(state: string, record: KeeperRecord): Promise<void> {
  await writeJsonAtomic(keeperPaths(state).record, record);
}

/** Whether `org down` asked every keeper to end and none to start: until the next `org up`. */
export function isKeeperStopped(state: string): Promise<boolean> {
  return pathExists(keeperPaths(state).stop);
}

/** The environment a keeper gets: what the daemon gets (no secret but the declared ones), and their names. */
export function keeperEnv(env: NodeJS.ProcessEnv, secrets: readonly string[]): Record<string, string> {
  const { TMUX: _tmux, TMUX_PANE: _pane, ...rest } = filterAgentEnv(env);
  return { ...rest, ...pickEnv(env, secrets), [DAEMON_SECRETS_VAR]: secrets.join(",") };
}

/** The secret names a daemon or keeper was started with, to pass on. */
export function readDaemonSecrets(env: NodeJS.ProcessEnv): string[] {
  return (env[DAEMON_SECRETS_VAR] ?? "").split(",").filter(Boolean);
}

/** Starts `org keeper` detached, in a session and process group of its own, so it outlives whoever started it. */
export async function startKeeper(opts: {
  root: string;
  state: string;
  orgArgv: readonly string[];
  env: Record<string, string>;
}): Promise<number | undefined> {
  await mkdir(opts.state, { recursive: true, mode: PRIVATE_DIR });
  const log = openSync(keeperPaths(opts.state).log, "a");
  try {
    const argv = [...opts.orgArgv, "keeper", "--root", opts.root];
    const child = startChild(argv, { detached: true, stdio: ["ignore", log, log], cwd: opts.root, env: opts.env });
    child.on("error", () => undefined);
    child.unref();
    return child.pid;
  } finally {
    closeSync(log);
  }
}

/** `org down`'s first step: no keeper may start or restart anything from now on; the running one is ended. */
export async function stopKeeper(root: string, state: string): Promise<boolean> {
  const files = keeperPaths(state);
  // No state folder, no org started here: nothing to mark.
  await writeFile(files.stop, `${new Date().toISOString()} org down\n`).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") throw error;
  });
  const pid = await findRunningKeeper(root, state);
  if (pid !== undefined) await killProcessGroup(pid, 2000);
  await rm(files.lock, { force: true });
  await rm(files.record, { force: true });
  return pid !== undefined;
}

/** `org up`: keepers may run again. */
export async function allowKeeper(state: string): Promise<void> {
  await rm(keeperPaths(state).stop, { force: true });
}

// A pid in keeper.lock may have been reused by any process since: only `org keeper --root <root>` counts.
/** Whether `pid` runs and is this org's keeper: two small reads of /proc, no file in state/. */
export function isKeeperProcess(pid: number, root: string): boolean {
  if (!isRunningProcess(pid)) return false;
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    return argv.includes("keeper") && argv.includes(root);
  } catch (error) {
    // Without /proc (not Linux) the pid is all there is.
    return (error as NodeJS.ErrnoException).code === "ENOENT" && !existsProc();
  }
}

function existsProc(): boolean {
  try {
    readFileSync("/proc/self/cmdline");
    return true;
  } catch {
    return false;
  }
}
