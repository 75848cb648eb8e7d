import { readOptionalRecord } from "../adapters/store/org-record.js";
import { setTimeout as sleep } from "node:timers/promises";
import { readText } from "../adapters/fs/files.js";
import { filesPort } from "../adapters/fs/files-port.js";
import { readDaemonFile } from "../domain/lifecycle/daemon-file.js";
import { isKeeperStopped, keeperPaths, takeKeeperLock } from "../adapters/keeper-process.js";
import { readDaemonSecrets, readKeeperRecord, writeKeeperRecord } from "../adapters/keeper-process.js";
import { isSameProcess, readStartTicks } from "../adapters/process.js";
import { createWorld } from "../adapters/real-world.js";
import { daemonLaunch, respawnDeadDaemon } from "../domain/lifecycle/daemon-pane.js";
import { decideDaemonRestart, describeDaemonExit, startKeeperRecord } from "../domain/lifecycle/keeper-rules.js";
import type { KeeperRecord } from "../domain/lifecycle/keeper-rules.js";
import { formatLogEntry } from "../domain/log-entry.js";
import { orgPaths, type OrgPaths } from "../domain/paths.js";
import type { PaneInfo } from "../domain/ports.js";
import type { OrgRecord } from "../domain/state.js";
import type { World } from "../domain/world.js";

// A pid probe reads one /proc file: cheap enough to notice a dead daemon within a fifth of a second.
const POLL_MS = 200;
// keeper.lock and `org down`'s mark, while the daemon lives (`org down` also ends the keeper's process group itself).
const MINE_EVERY_MS = 1000;
// The pid probe knows the daemon by its start time, so a reused pid is no daemon: tmux is asked only now and then.
const LOOK_EVERY_MS = 60_000;
// tmux marks a pane dead when its terminal closes, maybe before it has reaped the program: its status comes soon after.
const STATUS_GRACE_MS = 2000;

/**
 * `org keeper`: restarts the daemon's pane whenever the daemon exits, until `org down`. It holds keeper.lock for its
 * whole life (one keeper per org) and ends when the lock is no longer its own, when `org down` marks the stop, or
 * when the grid itself is gone. The daemon restarts a keeper that dies: each watches the other.
 */
export async function runKeeper(opts: { root: string }): Promise<number> {
  const paths = orgPaths(opts.root);
  const files = keeperPaths(paths.state);
  const record = await readOptionalRecord(opts.root).catch(() => undefined);
  if (!record || (await isKeeperStopped(paths.state))) return 0;
  const previous = await readKeeperRecord(paths.state);
  if (!(await takeKeeperLock(opts.root, paths.state))) return 0;
  const world = createWorld();
  const me = { pid: process.pid, now: world.now(), upAt: record.upAt };
  const started = startKeeperRecord(previous, me);
  let state = started.record;
  await writeKeeperRecord(paths.state, state);
  if (started.replaced !== undefined) {
    const body = `keeper pid ${started.replaced} was gone; ${state.keeperRestarts} keeper restarts since org up`;
    await log(world, paths, "restarted the keeper", body);
  }
  const save = async (next: KeeperRecord) => {
    state = next;
    await writeKeeperRecord(paths.state, state);
  };
  const mine = async () => (await readText(files.lock).catch(() => undefined))?.trim() === String(process.pid)
    && !(await isKeeperStopped(paths.state));
  await keepDaemon({ world, paths, record, first: state, save, mine });
  return 0;
}

interface KeepInput {
  world: World;
  paths: OrgPaths;
  record: OrgRecord;
  first: KeeperRecord;
  save(next: KeeperRecord): Promise<void>;
  /** False once the keeper must end: its lock taken from it, or `org down`. */
  mine(): Promise<boolean>;
}

// Watches the daemon's pid, asks the grid when it is gone, and restarts the pane when it is dead (backing off).
async function keepDaemon({ world, paths, record, first, save, mine }: KeepInput): Promise<void> {
  const tmux = world.panes(record.socket, record.session);
  let state = first;
  let daemon: { pid: number; ticks: number | null; since: number } | undefined;
  let lookedAt = 0;
  let due: { at: number; dead: PaneInfo; reason: string } | undefined;
  let unreaped: number | undefined;
  let minedAt = 0;
  for (;;) {
    const now = Date.now();
    const alive = daemon !== undefined && isSameProcess(daemon.pid, daemon.ticks) && now - lookedAt < LOOK_EVERY_MS;
    // While the daemon lives a tick is its pid probe, one /proc read: the lock and the stop mark are read once a
    // second, and afresh before anything is done.
    if (!alive || now - minedAt >= MINE_EVERY_MS) {
      if (!(await mine())) return;
      minedAt = now;
    }
    if (alive) {
      await sleep(POLL_MS);
      continue;
    }
    lookedAt = now;
    const control = (await tmux.listPanes().catch(() => [])).find((pane) => pane.id === record.controlPaneId);
    if (!control) {
      // No server: nothing is left to keep, and the next `org up` starts a keeper anew. A pane closed by hand, or a
      // tmux too busy to answer, is looked at again later.
      if (!(await tmux.isRunning().catch(() => true))) return;
      await sleep(POLL_MS * 5);
      continue;
    }
    if (!control.dead) {
      // A pid tmux still lists but that has already ended (no start time) keeps the daemon first seen, and its start.
      const ticks = readStartTicks(control.pid);
      if (daemon?.pid !== control.pid || (ticks !== null && daemon.ticks !== ticks))
        daemon = { pid: control.pid, ticks, since: await readDaemonStart(paths, control.pid, now) };
      // Restarted by `org up` while this keeper waited out a backoff: nothing is pending any more.
      if (due && state.waitingUntil) {
        const { waitingUntil: _, ...rest } = state;
        state = rest;
        await save(state);
      }
      due = undefined;
      await sleep(POLL_MS);
      continue;
    }
    if (!due && control.deadStatus === null && !control.deadSignal && now - (unreaped ?? now) < STATUS_GRACE_MS) {
      if (unreaped === undefined) await tmux.reapExited?.().catch(() => undefined);
      unreaped ??= now;
      await sleep(POLL_MS / 4);
      continue;
    }
    unreaped = undefined;
    if (!due) {
      const exit = describeDaemonExit(control);
      // One this keeper never saw alive (both killed, a keeper started since): the daemon's record says when it began.
      const livedMs = now - (daemon?.since ?? (await readDaemonStart(paths, control.pid, now)));
      const decision = decideDaemonRestart({ livedMs, quickDeaths: state.quickDeaths, exit });
      const delay = decision.kind === "back-off" ? decision.delayMs : 0;
      due = { at: now + delay, dead: control, reason: decision.reason };
      const lastRestart = { at: new Date(now).toISOString(), exit, livedMs };
      const { waitingUntil: _, ...rest } = { ...state, quickDeaths: decision.quickDeaths, lastRestart };
      state = delay > 0 ? { ...rest, waitingUntil: new Date(due.at).toISOString() } : rest;
      await save(state);
    }
    if (now < due.at) {
      await sleep(Math.min(POLL_MS, due.at - now));
      continue;
    }
    const launch = daemonLaunch(world.orgArgv, paths, world.secretEnv(readDaemonSecrets(process.env)));
    const respawn = await respawnDeadDaemon(world, paths, record, launch)
      .catch((error: Error) => ({ kind: "failed" as const, reason: error.message }));
    if (respawn.kind === "restarted") {
      const { waitingUntil: _, ...rest } = state;
      state = { ...rest, daemonRestarts: state.daemonRestarts + 1 };
      await save(state);
      const times = `${state.daemonRestarts} time${state.daemonRestarts === 1 ? "" : "s"}`;
      const title = `restarted the daemon (${describeDaemonExit(respawn.dead)}), ${times} since org up`;
      await log(world, paths, title, `${due.reason}; agents kept running`);
      say(title);
    } else if (respawn.kind !== "alive") {
      say(`could not restart the daemon: ${respawn.reason}`);
    }
    daemon = undefined;
    due = undefined;
  }
}

// A daemon this keeper first sees already running started before it: its heartbeat says when.
async function readDaemonStart(paths: OrgPaths, pid: number, seenAt: number): Promise<number> {
  const beat = await readDaemonFile(filesPort, paths);
  const at = beat?.pid === pid && beat.startedAt ? Date.parse(beat.startedAt) : NaN;
  return Number.isFinite(at) && at <= seenAt ? at : seenAt;
}

async function log(world: World, paths: OrgPaths, title: string, body: string): Promise<void> {
  const entry = formatLogEntry({ date: world.now(), op: "keeper", title, body });
  await world.files.appendLines(paths.log, [entry]).catch(() => undefined);
}

// keeper.log, for a person asking why: one line per thing done.
function say(line: string): void {
  process.stdout.write(`[org keeper] ${new Date().toISOString()} ${line}\n`);
}
