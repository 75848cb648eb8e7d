// opencode's conversation, read from its SQLite file and WAL as its usage is: messages and their parts.
import type { OpencodePart } from "../../domain/traces/opencode-events.js";
import { readOpencodeEvents } from "../../domain/traces/opencode-events.js";
import { describeError } from "../usage/jsonl.js";
import { openPages, stampOf } from "../usage/sqlite-pages.js";
import { readTableRows } from "../usage/sqlite-table.js";
import type { AgentTrace } from "../../domain/traces/events.js";

/** opencode's database and WAL together are read up to this size. */
export const MAX_DATABASE_BYTES = 256 * 1024 * 1024;

/** The timeline in opencode's database at `path` (below the agent's config folder `top`); never throws. */
export async function readOpencodeTrace(path: string, top: string, cli: string): Promise<AgentTrace> {
  let problem = "it kept changing while read";
  // A read a write overlapped is tried again: the stamps before and after must agree.
  for (let attempt = 0; attempt < 3; attempt++) {
    const stamp = await stampOf(path);
    if (stamp.startsWith("-")) return { kind: "read", cli, events: [], problems: [] };
    // Every row is read into memory: a database past this bound is not read at all.
    const bytes = stamp.split("|").reduce((sum, part) => sum + (Number(part.split(":")[0]) || 0), 0);
    if (bytes > MAX_DATABASE_BYTES) {
      const why = `${path} and its WAL are ${bytes} bytes, over the ${MAX_DATABASE_BYTES} org reads`;
      return { kind: "read", cli, events: [], problems: [why] };
    }
    try {
      const { messages, parts } = await readRows(path, top);
      if ((await stampOf(path)) !== stamp) continue;
      const { events, known } = readOpencodeEvents(messages, parts);
      const foreign = "opencode.db: an unknown shape — none of its parts belongs to a message with a role";
      const shape = parts.length > 0 && known === 0 ? [foreign] : [];
      return { kind: "read", cli, events, problems: shape };
    } catch (error) {
      problem = describeError(error as NodeJS.ErrnoException);
      if ((await stampOf(path)) === stamp) break;
    }
  }
  return { kind: "read", cli, events: [], problems: [`cannot read opencode's database ${path}: ${problem}`] };
}

async function readRows(path: string, top: string): Promise<{ messages: Map<string, string>; parts: OpencodePart[] }> {
  const pages = await openPages(path, top);
  try {
    const messages = new Map<string, string>();
    for (const row of await readTableRows(pages, "message")) {
      if (typeof row.id === "string" && typeof row.data === "string") messages.set(row.id, row.data);
    }
    const parts: OpencodePart[] = [];
    for (const row of await readTableRows(pages, "part")) {
      const { id, message_id: messageId, time_created: at, data } = row;
      if (typeof id !== "string" || typeof messageId !== "string" || typeof data !== "string") continue;
      parts.push({ id, messageId, at: typeof at === "number" ? at : 0, data });
    }
    return { messages, parts };
  } finally {
    await pages.close();
  }
}
