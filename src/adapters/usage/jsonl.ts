import { join } from "node:path";
import { explainCursor, freshCursor, scanJsonl, type ScanCursor } from "../../domain/usage/jsonl-scan.js";
import type { UsageFormat } from "../../domain/usage/usage-formats.js";
import type { UsageRecord } from "../../domain/usage/token-counts.js";
import { listUntrusted, openUntrusted } from "../fs/untrusted.js";

/** How far one transcript file has been read: bytes (always at a line's end) and the scan's own cursor. */
export interface FileCursor extends ScanCursor {
  offset: number;
  ino: number;
}

export type JsonlFormat = Extract<UsageFormat, { kind: "jsonl" }>;

/** A half-written last line this long unchanged is no longer being written: its reply is reported missing. */
export const HALF_LINE_STALE_MS = 60_000;
const CHUNK = 4 * 1024 * 1024;

/**
 * New replies in every transcript file of one CLI under `dir`, read from where each file was left; never throws.
 * `top` is the agent's config folder, which it writes: no link below it is followed.
 */
export async function readJsonlUsage(
  dir: string, format: JsonlFormat, cursors: Record<string, FileCursor>, now: number, top = dir,
): Promise<{ records: UsageRecord[]; cursors: Record<string, FileCursor>; problems: string[] }> {
  const listed = await listTranscripts(top, dir, format);
  if ("problem" in listed) return { records: [], cursors, problems: [listed.problem] };
  const next = { ...cursors };
  const records: UsageRecord[] = [];
  const problems = [...listed.problems];
  for (const file of listed.files) {
    // Named as in the agent's config folder, where a person would look for it.
    const label = join(format.dir, file);
    const read = await readFileFrom(
      top, join(dir, file), label, format, next[file], now,
    ).catch((error: NodeJS.ErrnoException) => ({ problem: `cannot read ${label}: ${describeError(error)}` }));
    if ("problem" in read) {
      problems.push(read.problem);
      continue;
    }
    next[file] = read.cursor;
    records.push(...read.records);
    const why = read.halfLine ?? explainCursor(read.cursor, label, format.cli);
    if (why) problems.push(why);
  }
  return { records, cursors: next, problems };
}

/**
 * Transcript paths relative to `dir`, sorted; a folder where a transcript should be is a problem, no folder
 * is none yet.
 */
export async function listTranscripts(
  top: string, dir: string, format: Pick<JsonlFormat, "cli" | "dir" | "matches">,
): Promise<{ files: string[]; problems: string[] } | { problem: string }> {
  let entries;
  try {
    entries = await listUntrusted(top, dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT"
      ? { files: [], problems: [] }
      : {
        problem: `cannot list ${format.cli}'s transcripts in ${dir}: ${describeError(error as NodeJS.ErrnoException)}`,
      };
  }
  const files: string[] = [];
  const problems: string[] = [];
  for (const { path: relative, entry } of entries) {
    if (!format.matches(relative)) continue;
    if (entry.isFile()) files.push(relative);
    else if (entry.isDirectory()) problems.push(`${join(format.dir, relative)} is a directory, not a transcript file`);
  }
  return { files: files.sort(), problems };
}

async function readFileFrom(
  top: string, path: string, label: string, format: JsonlFormat, previous: FileCursor | undefined, now: number,
): Promise<{ records: UsageRecord[]; cursor: FileCursor; halfLine?: string }> {
  const handle = await openUntrusted(top, path);
  const info = await handle.stat().catch(async (error: unknown) => {
    await handle.close();
    throw error;
  });
  // A file replaced or cut shorter is read again from its start: ids keep replies counted once.
  let cursor: FileCursor = previous && previous.ino === info.ino && previous.offset <= info.size
    ? previous
    : { ...freshCursor(), offset: 0, ino: info.ino };
  const records: UsageRecord[] = [];
  try {
    let size = CHUNK;
    while (cursor.offset < info.size) {
      const buffer = Buffer.alloc(Math.min(size, info.size - cursor.offset));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, cursor.offset);
      const end = buffer.lastIndexOf(0x0a, bytesRead - 1);
      if (end < 0) {
        if (cursor.offset + bytesRead < info.size) { size *= 2; continue; }
        // The CLI may be writing this line now; only one left unfinished for a minute is a truncated file.
        const stale = now - info.mtimeMs >= HALF_LINE_STALE_MS;
        return {
          records, cursor,
          halfLine: stale
            ? `${label}: truncated — it ends in a half-written line (${bytesRead} bytes) unchanged for `
              + `${HALF_LINE_STALE_MS / 1000}s, so its last reply may be missing`
            : undefined,
        };
      }
      const scanned = scanJsonl(buffer.toString("utf8", 0, end + 1), format.read, cursor, label);
      records.push(...scanned.records);
      cursor = { ...scanned.cursor, offset: cursor.offset + end + 1, ino: info.ino };
      size = CHUNK;
    }
    return { records, cursor };
  } finally {
    await handle.close();
  }
}

export function describeError(error: NodeJS.ErrnoException): string {
  if (error.code === "EACCES" || error.code === "EPERM") return "permission denied";
  if (error.code === "EISDIR") return "it is a directory";
  return error.message;
}
