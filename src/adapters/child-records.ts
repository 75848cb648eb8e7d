// What a daemon starts that can outlive it (verify runs, its tmux waiter) is written down here, one file per child,
// so the next daemon or `org down` ends exactly those processes: by pid and start time, never by name.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ChildRecord, ChildRecordSchema } from "./child-record-schema.js";
import { formatLogEntry } from "../domain/log-entry.js";
import type { ChildTicket, ChildTracker } from "../domain/ports.js";
import { appendLines } from "./fs/files.js";
import { groupExists, isSameProcess, killProcessGroup, readStartTicks } from "./process.js";

export type { ChildRecord } from "./child-record-schema.js";

// A kill -9 inside the spawn leaves a child with no pid on record: the token in its environment still names it.
export const CHILD_TOKEN_ENV = "ORG_CHILD_TOKEN";

/** The children of this daemon, announced before they start and forgotten as they end. */
export class ChildRecords implements ChildTracker {
  private made = false;
  private count = 0;

  constructor(private readonly dir: string) {}

  /**
   * Synchronous, before and right after the spawn: a kill -9 at any moment still leaves a record to find
   * the child by.
   */
  announce(kind: ChildRecord["kind"], what: string, group: boolean): ChildTicket {
    const token = `${process.pid}-${Date.now()}-${++this.count}`;
    const base: ChildRecord = {
      pid: null, startTicks: null, token, group, kind, what, daemonPid: process.pid,
      daemonTicks: readStartTicks(process.pid),
    };
    const pending = join(this.dir, `pending-${token}.json`);
    this.write(pending, base);
    return {
      env: { [CHILD_TOKEN_ENV]: token },
      started: (pid) => {
        if (pid !== undefined) this.write(join(this.dir, `${pid}.json`), {
          ...base, pid, startTicks: readStartTicks(pid),
        });
        rmSync(pending, { force: true });
      },
      ended: (pid) => {
        if (pid !== undefined) rmSync(join(this.dir, `${pid}.json`), { force: true });
        rmSync(pending, { force: true });
      },
    };
  }

  private write(file: string, record: ChildRecord): void {
    try {
      if (!this.made) mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      this.made = true;
      writeFileSync(file, `${JSON.stringify(record)}\n`);
    } catch {
      // A full disk: the child runs unrecorded, as before this ledger existed; the run itself must not fail for it.
    }
  }
}

/**
 * Ends every recorded child whose daemon is gone; returns what was ended, for the log. Records of a live daemon stay,
 * and so do those of the kinds in `keep` (a new daemon lets an agent's command wait on for its verdict;
 * `org down` ends it).
 */
export async function endOrphanedChildren(
  dir: string, graceMs = 2000, keep: readonly ChildRecord["kind"][] = [],
): Promise<ChildRecord[]> {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith(".json"));
  } catch {
    return [];
  }
  // The schema (zod) only when there are records: `org status` loads this module and none of it.
  const schema = names.length > 0 ? (await import("./child-record-schema.js")).ChildRecordSchema : undefined;
  const records = names.map((name) => ({ name, record: schema && readRecord(schema, join(dir, name)) }));
  const orphaned = records.filter(({ record }) => !record
    || (!keep.includes(record.kind)
    && (record.daemonPid === process.pid || !isSameProcess(record.daemonPid, record.daemonTicks))));
  const unspawned = orphaned.flatMap(({ record }) => (record && record.pid === null ? [record] : []));
  const found = unspawned.length > 0
    ? findByToken(new Set(unspawned.map((record) => record.token)))
    : new Map<string, { pid: number; pgid: number }[]>();
  const ended: ChildRecord[] = [];
  await Promise.all(orphaned.map(async ({ name, record }) => {
    // A verify run's workers inherit the token too: its group leader stands for them all.
    const matches = record?.pid === null
      ? (found.get(record.token) ?? []).filter((match) => !record.group || match.pgid === match.pid)
      : [];
    const children = !record
      ? []
      : record.pid === null
        ? matches.map((match) => ({ ...record, pid: match.pid, startTicks: readStartTicks(match.pid) }))
        : [{ ...record, pid: record.pid }];
    for (const child of children) if (await endChild(child, graceMs)) ended.push(child);
    rmSync(join(dir, name), { force: true });
  }));
  return ended;
}

// Only a spawn cut short by a kill leaves a pending record, so this walk of /proc is rare.
function findByToken(tokens: Set<string>): Map<string, { pid: number; pgid: number }[]> {
  const found = new Map<string, { pid: number; pgid: number }[]>();
  let names: string[];
  try {
    names = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return found;
  }
  for (const name of names) {
    try {
      const entry = readFileSync(`/proc/${name}/environ`, "utf8")
        .split("\0")
        .find((line) => line.startsWith(`${CHILD_TOKEN_ENV}=`));
      const token = entry?.slice(CHILD_TOKEN_ENV.length + 1);
      if (!token || !tokens.has(token)) continue;
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const pgid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
      found.set(token, [...(found.get(token) ?? []), { pid: Number(name), pgid }]);
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

async function endChild(record: ChildRecord & { pid: number }, graceMs: number): Promise<boolean> {
  const same = isSameProcess(record.pid, record.startTicks);
  // Its leader gone, a group can still hold the run's workers; Linux hands out no pid that is a live group's id.
  // A group of exited, unreaped processes counts too: what a killed daemon left is ended and said once, either way.
  const groupLeft = record.group && readStartTicks(record.pid) === null && groupExists(record.pid);
  if (!same && !groupLeft) return false;
  if (record.group) await killProcessGroup(record.pid, graceMs);
  else await killProcess(record.pid, graceMs);
  return true;
}

async function killProcess(pid: number, graceMs: number): Promise<void> {
  try {
    process.kill(pid, "SIGTERM");
  } catch {
    return;
  }
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && readStartTicks(pid) !== null) await new Promise((resolve) => setTimeout(resolve, 25));
  if (readStartTicks(pid) !== null) process.kill(pid, "SIGKILL");
}

function readRecord(schema: typeof ChildRecordSchema, file: string): ChildRecord | undefined {
  try {
    // A pid of 0, 1 or below would end far more than a child: such a record is no child's.
    const parsed = schema.safeParse(JSON.parse(readFileSync(file, "utf8")));
    return parsed.success ? parsed.data : undefined;
  } catch {
    // Cut short by a full disk or a kill mid-write: nothing to act on.
    return undefined;
  }
}

/** One line for a process ended: what it was and whose. */
export function describeChild(record: ChildRecord): string {
  return `${record.what} (pid ${record.pid}${record.group ? " and its process group" : ""}, left by daemon `
    + `${record.daemonPid})`;
}

/** Ends what a dead daemon left and says so in log.md; a verify run's request is still queued, so it runs again. */
export async function endLeftChildren(
  paths: { children: string; log: string }, who: string, keep: readonly ChildRecord["kind"][] = [],
): Promise<ChildRecord[]> {
  const ended = await endOrphanedChildren(paths.children, undefined, keep);
  if (ended.length === 0) return ended;
  const rerun = ended.some((record) => record.kind === "verify")
    ? "\nTheir requests stay queued and run again: no one can read the exit status of a run whose daemon died."
    : "";
  // Verify runs first, whose requests run again: what a person reading log.md most needs to know.
  const listed = [...ended].sort((a, b) => Number(b.kind === "verify") - Number(a.kind === "verify"));
  const entry = formatLogEntry({
    date: new Date(), op: "recover",
    title: `${who} ended ${ended.length} process${ended.length === 1 ? "" : "es"} a killed daemon left`,
    body: `${listed.map((record) => `- ${describeChild(record)}`).join("\n")}${rerun}`,
  });
  await appendLines(paths.log, [entry]).catch(() => undefined);
  return ended;
}
