import { relative } from "node:path";
import { OrgError } from "../../domain/errors.js";
import { markRead, readInbox, readSent } from "../../domain/messages/read-inbox.js";
import { resolveAgent } from "../../domain/messages/wiring.js";
import { listAgents } from "../../domain/lifecycle/plan-agents.js";
import { orgPaths } from "../../domain/paths.js";
import { loadConfigOrThrow } from "../../adapters/store/run-config.js";
import { mailPort } from "../../adapters/store/inbox-files.js";
import { findCaller } from "../../adapters/identity/find-caller.js";
import type { Io } from "../io.js";

// Ten messages at most per call: an agent's context should not fill up with its inbox.
const PAGE = 10;
const SENT_SHOWN = 20;

export interface InboxOptions {
  root: string;
  /** --agent: whose inbox, for people. */
  agent?: string;
  read?: string[];
  sent?: boolean;
}

/** `org inbox`: unread messages oldest first; `--read ID…` acknowledges; `--sent` shows who has read what you sent. */
export async function runInbox(opts: InboxOptions, io: Io): Promise<number> {
  const config = await loadConfigOrThrow(opts.root);
  const state = orgPaths(opts.root).state;
  const caller = await findCaller(opts.root, listAgents(config));
  let agent = caller.kind === "agent" ? caller.agent : undefined;
  if (opts.agent !== undefined) {
    const found = resolveAgent(config, opts.agent);
    if (!found.ok) throw new OrgError(found.reason, "unknown-agent");
    // An agent reads and acknowledges its own messages only: another's --read would mark them read unseen.
    if (agent !== undefined && found.agent !== agent) throw new OrgError(`${agent} reads only its own inbox; --agent ${found.agent} names another agent — drop --agent`, "not-agent");
    agent = found.agent;
  }
  if (opts.sent) return printSent(io, state, agent ?? "person");
  if (agent === undefined) throw new OrgError("whose inbox? an agent runs `org inbox` in its own pane; a person names one: org inbox --agent <agent>", "usage");
  if (opts.read) {
    const { marked, already } = await markRead(mailPort, state, agent, opts.read, new Date());
    for (const id of marked) io.out(`marked read: ${id}`);
    for (const id of already) io.out(`already read: ${id}`);
    return 0;
  }
  const { unread, problems } = await readInbox(mailPort, state, agent);
  for (const problem of problems) io.err(`org: ${relative(opts.root, problem.file)}:${problem.line}: ${problem.reason} — ${problem.fix} (skipped)`);
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

async function printSent(io: Io, state: string, from: string): Promise<number> {
  const sent = await readSent(mailPort, state, from, SENT_SHOWN);
  if (sent.length === 0) {
    io.out(`${from} has sent no messages`);
    return 0;
  }
  io.out(`sent by ${from}, newest last:`);
  for (const { record, deliveries } of sent) {
    const states = deliveries.map((delivery) => `${delivery.agent} ${delivery.state === "read" ? `read${delivery.at ? ` ${delivery.at}` : ""}` : delivery.state}`);
    io.out(`${record.id} ${record.kind} "${record.summary}": ${states.join(", ")}`);
  }
  return 0;
}
