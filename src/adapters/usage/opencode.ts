import { readOpencodeMessage } from "../../domain/usage/opencode-message.js";
import type { UsageRecord } from "../../domain/usage/token-counts.js";
import { openPages, stampOf } from "./sqlite-pages.js";
import { readTableRows } from "./sqlite-table.js";

export type OpencodeRead = { kind: "unchanged" } | {
  kind: "read"; stamp: string; records: UsageRecord[]; problem?: string;
} | { kind: "failed"; problem: string };

/**
 * Every finished reply in opencode's database, read from the file itself (Node 20 has no SQLite; `opencode db`
 * works but starts a whole opencode, seconds of CPU per look). A read that a write overlapped is tried again.
 */
export async function readOpencodeUsage(
  path: string, lastStamp: string | undefined, top?: string,
): Promise<OpencodeRead> {
  let problem = "";
  for (let attempt = 0; attempt < 3; attempt++) {
    const stamp = await stampOf(path);
    if (stamp === lastStamp) return { kind: "unchanged" };
    if (stamp.startsWith("-")) return { kind: "read", stamp, records: [] };
    try {
      const rows = await readRows(path, top);
      if ((await stampOf(path)) !== stamp) continue;
      return { kind: "read", stamp, ...collect(rows) };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      problem = code === "EACCES" || code === "EPERM"
        ? "permission denied"
        : code === "EISDIR" ? "it is a directory" : (error as Error).message;
      if ((await stampOf(path)) === stamp) break;
    }
  }
  return {
    kind: "failed", problem: `cannot read opencode's database ${path}: ${problem || "it kept changing while read"}`,
  };
}

async function readRows(path: string, top?: string) {
  const pages = await openPages(path, top);
  try {
    return await readTableRows(pages, "message");
  } finally {
    await pages.close();
  }
}

function collect(rows: Awaited<ReturnType<typeof readRows>>): { records: UsageRecord[]; problem?: string } {
  const records: UsageRecord[] = [];
  let problem: string | undefined;
  for (const row of rows) {
    if (typeof row.id !== "string" || typeof row.data !== "string") {
      problem ??= "opencode.db: a message row without a text id and data — an unknown shape";
      continue;
    }
    const reading = readOpencodeMessage(row.id, row.data);
    if (reading.kind === "usage") records.push(reading.record);
    else if (reading.kind === "malformed") problem ??= `opencode.db: ${reading.why}`;
    else if (reading.kind === "foreign") problem ??= `opencode.db: message ${row.id} is of an unknown shape (no role)`;
  }
  return { records, problem };
}
