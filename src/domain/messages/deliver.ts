import { join } from "node:path";
import { explainUnsafeName, SAFE_NAME, type MessageSettings } from "../config/index.js";
import { OrgError } from "../errors.js";
import { formatMessage, MESSAGE_ID, newMessageId } from "./message-head.js";
import { inboxPaths, type MailPort, type SentRecord } from "./mail-port.js";

/** A message on its way: who from, to which agents, what kind, what it says. */
export interface Outgoing {
  from: string;
  to: string[];
  kind: string;
  body: string;
  extra?: Record<string, string>;
}

/**
 * The one way a message is written: one file per recipient in its inbox, each written atomically,
 * then the sender's log. A full inbox sheds its oldest messages, read ones first, into the archive.
 */
export async function deliverMessage(
  port: MailPort, state: string, outgoing: Outgoing, settings: MessageSettings, clock: { now: Date; entropy: string },
): Promise<{ id: string; files: string[] }> {
  const problem = checkOutgoing(outgoing, settings);
  if (problem) throw new OrgError(problem, "message");
  const id = newMessageId(clock.now, clock.entropy);
  const time = clock.now.toISOString();
  const files = await Promise.all(outgoing.to.map(async (agent) => {
    const file = join(inboxPaths(state, agent).inbox, `${id}.md`);
    const head = { id, from: outgoing.from, to: agent, time, kind: outgoing.kind };
    await port.writeMessage(state, agent, file, formatMessage(head, outgoing.body, outgoing.extra));
    await archiveOverflow(port, state, agent, settings.inbox_max);
    return file;
  }));
  const record: SentRecord = {
    id,
    from: outgoing.from,
    to: outgoing.to,
    kind: outgoing.kind,
    time,
    summary: summarize(outgoing.body),
  };
  await port.records.appendSent(state, record);
  return { id, files };
}

/** What makes a message unsendable, as `what — how to fix`; undefined when it may go. */
export function checkOutgoing(outgoing: Outgoing, settings: MessageSettings): string | undefined {
  const names = [
    ["sender", outgoing.from],
    ["kind", outgoing.kind],
    ...outgoing.to.map((agent) => ["recipient", agent]),
  ] as const;
  for (const [what, name] of names) {
    if (!SAFE_NAME.test(name)) {
      const unsafe = explainUnsafeName(what, name);
      return `${unsafe.message} — ${unsafe.fix}`;
    }
  }
  if (outgoing.to.length === 0) return "the message has no recipient — name an agent or a role";
  if (outgoing.body.trim() === "") return "the message is empty — write some text, or give -f a file that has some";
  const bytes = Buffer.byteLength(outgoing.body, "utf8");
  if (bytes > settings.max_bytes) {
    return `the message is ${bytes} bytes, over the cap of ${settings.max_bytes} (messages.max_bytes in org.yaml) — `
      + `shorten it, or write the details to a file and send its path`;
  }
  return undefined;
}

/** Move the oldest messages to the archive until the inbox holds at most `max`: read ones first, then unread. */
async function archiveOverflow(port: MailPort, state: string, agent: string, max: number): Promise<string[]> {
  const paths = inboxPaths(state, agent);
  const ids = messageIds(await port.listNames(paths.inbox));
  if (ids.length <= max) return [];
  const read = new Set((await port.records.listReceipts(state, agent)).inbox);
  const chosen = pickArchived(ids, read, max);
  for (const id of chosen) {
    // Another sender may be archiving the same inbox: whoever moves the message moves its receipt.
    if (await port.move(state, agent, join(paths.inbox, `${id}.md`), join(paths.archive, `${id}.md`))) {
      await port.records.archiveReceipt(state, agent, id);
    }
  }
  return chosen;
}

/**
 * The ids beyond `max` to archive: the oldest read ones, then, for an agent that never reads (a
 * scripted one), the oldest unread, so its inbox stays bounded too. Archived is moved, never deleted.
 */
export function pickArchived(ids: string[], read: Set<string>, max: number): string[] {
  const excess = ids.length - max;
  if (excess <= 0) return [];
  const sorted = [...ids].sort();
  return [...sorted.filter((id) => read.has(id)), ...sorted.filter((id) => !read.has(id))].slice(0, excess);
}

/** Message ids from a folder listing, oldest first; temp files and strays are not messages. */
export function messageIds(names: string[]): string[] {
  return names.filter((name) => name.endsWith(".md") && MESSAGE_ID.test(name.slice(0, -3)))
    .map((name) => name.slice(0, -3)).sort();
}

export function receiptIds(names: string[]): string[] {
  return names.filter((name) => name.endsWith(".json") && MESSAGE_ID.test(name.slice(0, -5)))
    .map((name) => name.slice(0, -5));
}

function summarize(body: string): string {
  const first = body.split("\n").find((line) => line.trim() !== "") ?? "";
  const line = first.trim().replace(/\s+/g, " ");
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
