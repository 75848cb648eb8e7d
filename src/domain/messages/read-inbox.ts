import { join } from "node:path";
import { OrgError } from "../errors.js";
import { messageIds } from "./deliver.js";
import { MESSAGE_ID, parseMessage, type Message } from "./message-head.js";
import { inboxPaths, type MailPort, type Receipt, type SentRecord } from "./mail-port.js";

/** A file in an inbox that is not a readable message: where, and what is wrong. */
export interface InboxProblem {
  file: string;
  line: number;
  reason: string;
  fix: string;
}

/** Unread messages oldest first, and the files that could not be read as messages (skipped, never fatal). */
export async function readInbox(port: MailPort, state: string, agent: string): Promise<{
  unread: Message[]; problems: InboxProblem[];
}> {
  const paths = inboxPaths(state, agent);
  const names = await port.listNames(paths.inbox);
  const read = new Set((await port.records.listReceipts(state, agent)).inbox);
  const unread: Message[] = [];
  const problems: InboxProblem[] = [];
  for (const name of names.filter((candidate) => candidate.endsWith(".md")).sort()) {
    const id = name.slice(0, -3);
    const file = join(paths.inbox, name);
    if (read.has(id)) continue;
    if (!MESSAGE_ID.test(id)) {
      problems.push({
        file,
        line: 1,
        reason: "the file name is not a message id",
        fix: "send messages with `org send`, which names each file <id>.md",
      });
      continue;
    }
    const text = await port.readText(file);
    // Archived by a sender between the listing and the read: no longer in the inbox.
    if (text === undefined) continue;
    const parsed = parseMessage(text);
    if (!parsed.ok) problems.push({ file, line: parsed.line, reason: parsed.reason, fix: parsed.fix });
    else if (parsed.message.id !== id) problems.push({
      file,
      line: 2,
      reason: `id "${parsed.message.id}" is not the file's name`,
      fix: `write id: ${id}, or rename the file`,
    });
    else unread.push(parsed.message);
  }
  return { unread, problems };
}

/** Write a receipt per id; every id is checked before anything is written. Returns the ids that were unread. */
export async function markRead(port: MailPort, state: string, agent: string, ids: string[], now: Date): Promise<{
  marked: string[]; already: string[];
}> {
  const paths = inboxPaths(state, agent);
  const present = new Set(messageIds(await port.listNames(paths.inbox)));
  const archived = new Set(messageIds(await port.listNames(paths.archive)));
  for (const id of ids) {
    if (!MESSAGE_ID.test(id)) throw new OrgError(
      `"${id}" is not a message id — copy one from \`org inbox\`, e.g. 20260107-101502-123-0a1b2c3d`,
      "message-id",
    );
    if (!present.has(id) && !archived.has(id)) throw new OrgError(
      `no message ${id} in the inbox of ${agent} — \`org inbox\` lists its unread messages`,
      "message-id",
    );
  }
  const receipts = await port.records.listReceipts(state, agent);
  const read = new Set([...receipts.inbox, ...receipts.archive]);
  const marked: string[] = [];
  const already: string[] = [];
  for (const id of [...new Set(ids)]) {
    if (read.has(id)) {
      already.push(id);
      continue;
    }
    const receipt: Receipt = { id, by: agent, at: now.toISOString() };
    // A message archived unread gets its receipt next to it in the archive.
    await port.records.writeReceipt(state, agent, receipt, !present.has(id));
    marked.push(id);
  }
  return { marked, already };
}

/**
 * Whether one recipient has read a message: read (with when), unread, archived unread (its
 * inbox overflowed), or gone.
 */
export type Delivery =
  | { agent: string; state: "read"; at: string | null }
  | { agent: string; state: "unread" | "archived unread" | "missing" };

/** The newest `limit` messages `from` sent, each with every recipient's delivery state. */
export async function readSent(
  port: MailPort, state: string, from: string, limit: number,
): Promise<{ record: SentRecord; deliveries: Delivery[] }[]> {
  const records = await port.records.readSent(state, from, limit);
  return Promise.all(records.map(async (record) =>
    ({
      record,
      deliveries: await Promise.all(record.to.map((agent) => readDelivery(port, state, agent, record.id))),
    })));
}

async function readDelivery(port: MailPort, state: string, agent: string, id: string): Promise<Delivery> {
  const paths = inboxPaths(state, agent);
  const receipt = await port.records.readReceipt(state, agent, id);
  if (receipt) return { agent, state: "read", at: receipt.at };
  if (await port.exists(join(paths.archive, `${id}.md`))) return { agent, state: "archived unread" };
  return { agent, state: (await port.exists(join(paths.inbox, `${id}.md`))) ? "unread" : "missing" };
}
