import { join } from "node:path";
import { formatLogEntry } from "../../domain/log-entry.js";
import { parseReloadRecord, type ReloadRecord } from "../../domain/reconcile/reload-record.js";
import { appendLines, readJson, writeJsonAtomic } from "../../adapters/fs/files.js";
import { withLock } from "../../adapters/fs/lock.js";
import { logPath } from "../../domain/paths.js";

export function reloadFile(state: string): string {
  return join(state, "reload.json");
}

const lockFile = (state: string) => `${reloadFile(state)}.lock`;

/**
 * state/reload.json, this module's alone to read and write; undefined when missing, unreadable or of another shape:
 * `org status` then shows no reload warning and the meta rate limit's clock starts afresh, until the next reload
 * writes it whole.
 */
export async function readReloadRecord(state: string): Promise<ReloadRecord | undefined> {
  return parseReloadRecord(await readJson(reloadFile(state)).catch(() => undefined));
}

/**
 * Record how a reload attempt ended, keeping the meta rate limit's clock; log.md gets the entry unless it
 * repeats the rejection just logged (the daemon and `org reload` both see one bad save).
 */
export async function recordReload(
  state: string, record: Omit<ReloadRecord, "lastMetaAt">, log: { title: string; body?: string; always?: boolean },
): Promise<ReloadRecord> {
  // The daemon and `org reload` see one bad save at once: read, compare and log as one step, or both would log it.
  return withLock(lockFile(state), async () => {
    const previous = await readReloadRecord(state);
    const next: ReloadRecord = { ...record, ...(previous?.lastMetaAt ? { lastMetaAt: previous.lastMetaAt } : {}) };
    await saveReloadRecord(state, next);
    const repeated = record.outcome === "rejected" && previous?.outcome === "rejected"
      && sameList(previous.problems, record.problems);
    if (record.outcome !== "in-sync" && (log.always || !repeated)) await logReload(state, {
      at: record.at, op: record.outcome === "rejected" ? "reload-rejected" : "reload", ...log,
    });
    return next;
  });
}

/** A `reload`, `reload-rejected` or `reload-failed` entry in log.md. */
export async function logReload(
  state: string,
  entry: { at: string; op: "reload" | "reload-rejected" | "reload-failed"; title: string; body?: string },
): Promise<void> {
  await appendLines(logPath(state), [
    formatLogEntry({ date: new Date(entry.at), op: entry.op, title: entry.title, body: entry.body }),
  ]);
}

/** Start the meta rate limit's clock. */
export async function markMetaApplied(state: string, at: string): Promise<void> {
  await withLock(lockFile(state), async () => {
    const record = await readReloadRecord(state);
    if (record) await saveReloadRecord(state, { ...record, lastMetaAt: at });
  });
}

async function saveReloadRecord(state: string, record: ReloadRecord): Promise<void> {
  await writeJsonAtomic(reloadFile(state), record);
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}
