import { OrgError } from "../../domain/errors.js";
import { listAgents } from "../../domain/lifecycle/plan-agents.js";
import { markRead, readInbox, readSent } from "../../domain/messages/read-inbox.js";
import { resolveAgent } from "../../domain/messages/wiring.js";
import { orgPaths } from "../../domain/paths.js";
import { findCaller } from "../../adapters/identity/find-caller.js";
import { mailPort } from "../../adapters/store/inbox-files.js";
import { loadConfigOrThrow } from "../../adapters/store/run-config.js";

const SENT_SHOWN = 20;

/**
 * Whose inbox `org inbox` reads: the calling agent's, or the one a person names with --agent; undefined for a
 * person who names none. An agent naming another is refused.
 */
export async function findInboxAgent(root: string, named: string | undefined): Promise<string | undefined> {
  const config = await loadConfigOrThrow(root);
  const caller = await findCaller(root, listAgents(config));
  const agent = caller.kind === "agent" ? caller.agent : undefined;
  if (named === undefined) return agent;
  const found = resolveAgent(config, named);
  if (!found.ok) throw new OrgError(found.reason, "unknown-agent");
  // An agent reads and acknowledges its own messages only: another's --read would mark them read unseen.
  if (agent !== undefined && found.agent !== agent) {
    const why = `${agent} reads only its own inbox; --agent ${found.agent} names another agent`;
    throw new OrgError(`${why} — drop --agent`, "not-agent");
  }
  return found.agent;
}

/** `org inbox --read ID…`: which ids it marked read now, which were read already. */
export function markMessagesRead(root: string, agent: string, ids: string[]): ReturnType<typeof markRead> {
  return markRead(mailPort, orgPaths(root).state, agent, ids, new Date());
}

/** The agent's unread messages, oldest first, and the files that are no message. */
export function readUnread(root: string, agent: string): ReturnType<typeof readInbox> {
  return readInbox(mailPort, orgPaths(root).state, agent);
}

/** The newest messages `from` sent, with who has read each. */
export function readSentBy(root: string, from: string): ReturnType<typeof readSent> {
  return readSent(mailPort, orgPaths(root).state, from, SENT_SHOWN);
}
