import { OrgError } from "../domain/errors.js";
import { readDaemonFile, type DaemonFile } from "../domain/lifecycle/daemon-file.js";
import { filesPort } from "./fs/files-port.js";
import { FULL_BYTES } from "../domain/sandbox/disk-floor.js";
import { describeDiskFull, readFreeBytes } from "./fs/disk-space.js";
import { readJson } from "./fs/files.js";
import { isRunningProcess } from "./process.js";
import { dirname } from "node:path";
import { findRunningKeeper } from "./keeper-process.js";

// The daemon rewrites its heartbeat every refresh (2 s); three missed ones mean it is gone.
const HEARTBEAT_STALE_MS = 15_000;
// `org up` returns as soon as the agents run; a daemon it started gets this long to write its first heartbeat.
const START_GRACE_MS = 30_000;


/** What the liveness check looks at; tests hand in a full disk or a dead pid without making one. */
export interface DaemonProbe {
  isAlive(pid: number): boolean;
  readFreeBytes(path: string): Promise<number | undefined>;
}

// A killed daemon its tmux has not reaped yet is a zombie: exited, not running.
const systemProbe: DaemonProbe = { isAlive: isRunningProcess, readFreeBytes };

/**
 * Throws `message` unless the org's daemon is alive and recently wrote its heartbeat; waits for one just started.
 * A live daemon with a stale heartbeat is never called "not running": `outcome` (what became of the user's work)
 * follows its own message. Returns the heartbeat it found fresh, so a caller reads daemon.json once.
 */
export async function assertDaemonAlive(
  daemonFile: string, message: string, opts: { outcome?: string; probe?: DaemonProbe } = {},
): Promise<DaemonFile> {
  const probe = opts.probe ?? systemProbe;
  for (;;) {
    const daemon = await readDaemonFile(filesPort, { daemon: daemonFile });
    const pid = daemon?.pid && probe.isAlive(daemon.pid) ? daemon.pid : undefined;
    const age = daemon?.heartbeatAt ? Date.now() - Date.parse(daemon.heartbeatAt) : undefined;
    if (daemon && pid && age !== undefined && age < HEARTBEAT_STALE_MS) return daemon;
    const starting = daemon?.startingAt && !daemon.heartbeatAt
      && Date.now() - Date.parse(daemon.startingAt) < START_GRACE_MS;
    if (!starting && !(await isBeingRestarted(daemonFile, daemon, pid))) {
      if (pid) throw await explainSilentDaemon(daemonFile, pid, age, probe, opts.outcome);
      throw new OrgError(message, "down");
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// The daemon's process lives but its heartbeat is old: a full disk stops the write, anything else is a hung daemon.
async function explainSilentDaemon(
  daemonFile: string, pid: number, age: number | undefined, probe: DaemonProbe, outcome: string | undefined,
): Promise<OrgError> {
  const after = outcome ? ` (${outcome})` : "";
  const free = await probe.readFreeBytes(daemonFile);
  if (free !== undefined && free < FULL_BYTES) {
    const what = `the org's daemon (pid ${pid}) is running but cannot write its heartbeat to ${daemonFile}`;
    return new OrgError(
      `${await describeDiskFull(daemonFile, { what, free })}; the daemon carries on by itself once there is room`
        + `${after}`,
      "disk-full",
    );
  }
  const silent = age === undefined
    ? "has written no heartbeat since it started"
    : `stopped answering (heartbeat ${Math.round(age / 1000)} s old)`;
  return new OrgError(
    `the org's daemon (pid ${pid}) ${silent} — restart it with \`org down && org up\`${after}`, "daemon-stuck",
  );
}

// A daemon that died a moment ago while its keeper runs is about to come back: its clients wait as for one starting.
async function isBeingRestarted(daemonFile: string, daemon: DaemonFile | undefined, pid?: number): Promise<boolean> {
  if (pid || !daemon?.heartbeatAt || Date.now() - Date.parse(daemon.heartbeatAt) > START_GRACE_MS) return false;
  const state = dirname(daemonFile);
  return (await findRunningKeeper(dirname(state), state)) !== undefined;
}

/**
 * Wait for the daemon's answer file, checked by its owner's `parse`; fail clearly if the daemon dies meanwhile (the
 * request stays queued). The daemon writes it whole, so one that does not parse or check is an error, not a wait.
 */
export async function waitForAnswer<T>(
  file: string, daemonFile: string, parse: (value: unknown) => T | undefined,
): Promise<T> {
  for (let polls = 0; ; polls++) {
    // Only a parse error is the answer's: any other (a read racing the rename) is waited out, as a missing file.
    const value = await readJson(file).catch(keepParseError);
    if (value !== undefined) return checkAnswer(file, value, parse);
    if (polls % 40 === 0) await assertRoomToAnswer(daemonFile, await assertDaemonAlive(
      daemonFile, "the org went down while your request waited; it stays queued and runs at the next `org up`",
      { outcome: "your request stays queued" },
    ));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// A live daemon whose heartbeat still fits may have no room for the answer (the verifier pauses on a full disk): the
// caller hears of the disk now rather than waiting in silence until someone frees it.
async function assertRoomToAnswer(daemonFile: string, daemon: DaemonFile): Promise<void> {
  const free = await readFreeBytes(daemonFile);
  if (free === undefined || free >= FULL_BYTES) return;
  const what = `the org's daemon (pid ${daemon.pid ?? "unknown"}) is running but has no room to answer`;
  throw new OrgError(
    `${await describeDiskFull(daemonFile, { what, free })}; the daemon carries on by itself once there is room`
      + " (your request stays queued)",
    "disk-full",
  );
}

const keepParseError = (error: Error) => (error instanceof SyntaxError ? error : undefined);

function checkAnswer<T>(file: string, value: unknown, parse: (value: unknown) => T | undefined): T {
  const answer = value instanceof SyntaxError ? undefined : parse(value);
  if (answer !== undefined) return answer;
  const why = value instanceof SyntaxError ? "cut short or not JSON" : "of another shape";
  throw new OrgError(`${file} is no answer the daemon wrote (${why}) — remove it, and ask again`, "state");
}
