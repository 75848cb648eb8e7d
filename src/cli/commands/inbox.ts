import { relative } from "node:path";
import { OrgError } from "../../domain/errors.js";
import { findInboxAgent, markMessagesRead, readSentBy, readUnread } from "../../flows/views/inbox-view.js";
import type { Io } from "../io.js";

// Ten messages at most per call: an agent's context should not fill up with its inbox.
const PAGE = 10;

export interface InboxOptions {
  root: string;
  /** --agent: whose inbox, for people. */
  agent?: string;
  read?: string[];
  sent?: boolean;
}

/** `org inbox`: unread messages oldest first; `--read ID…` acknowledges; `--sent` shows who has read what you sent. */
export async function runInbox(opts: InboxOptions, io: Io): Promise<number> {
  const agent = await findInboxAgent(opts.root, opts.agent);
  if (opts.sent) return printSent(io, opts.root, agent ?? "person");
  if (agent === undefined) throw new OrgError(
    "whose inbox? an agent runs `org inbox` in its own pane; a person names one: org inbox --agent <agent>", "usage",
  );
  if (opts.read) {
    const { marked, already } = await markMessagesRead(opts.root, agent, opts.read);
    for (const id of marked) io.out(`marked read: ${id}`);
    for (const id of already) io.out(`already read: ${id}`);
    return 0;
  }
  const { unread, problems } = await readUnread(opts.root, agent);
  for (const problem of problems) io.err(
    `org: ${relative(opts.root, problem.file)}:${problem.line}: ${problem.reason} — ${problem.fix} (skipped)`,
  );
  if (unread.length === 0) {
    io.out(`no unread messages for ${agent}`);
    return 0;
  }
  io.out(`${unread.length} unread message${unread.length === 1 ? "" : "s"} for ${agent}, oldest first:`);
  for (const message of unread.slice(0, PAGE)) {
    io.out("");
    io.out(`## ${message.id} · from ${message.from} · ${message.kind} · ${message.time}`);
    io.out("");
    io.out(message.body.replace(/\n$/, ""));
  }
  io.out("");
  if (unread.length > PAGE) io.out(`… and ${unread.length - PAGE} more: mark these read, then run \`org inbox\` again`);
  io.out("mark each one read once you have acted on it: org inbox --read <id>");
  return 0;
}

async function printSent(io: Io, root: string, from: string): Promise<number> {
  const sent = await readSentBy(root, from);
  if (sent.length === 0) {
    io.out(`${from} has sent no messages`);
    return 0;
  }
  io.out(`sent by ${from}, newest last:`);
  for (const { record, deliveries } of sent) {
    const states = deliveries.map((delivery) => `${delivery.agent} `
      + `${delivery.state === "read" ? `read${delivery.at ? ` ${delivery.at}` : ""}` : delivery.state}`);
    io.out(`${record.id} ${record.kind} "${record.summary}": ${states.join(", ")}`);
  }
  return 0;
}
