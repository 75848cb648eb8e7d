import { randomBytes } from "node:crypto";
import { readdir, rename } from "node:fs/promises";
import { join } from "node:path";
import type { MessageSettings } from "../../domain/config/index.js";
import { deliverMessage, type Outgoing } from "../../domain/messages/deliver.js";
import { newMessageId } from "../../domain/messages/message-head.js";
import { inboxPaths, type MailPort } from "../../domain/messages/mail-port.js";
import { OrgError } from "../../domain/errors.js";
import { agentPaths } from "../../domain/paths.js";
import { addOutcome } from "../fs/disk-space.js";
import { placeUntrusted, writeUntrusted } from "../fs/untrusted.js";
import { messageRecords } from "./message-records.js";
import { pathExists, readText } from "../fs/files.js";

/** Inboxes on disk: atomic writes and renames into the archive, below the agent's folder through no link. */
export const mailPort: MailPort = {
  async listNames(dir) {
    return readdir(dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return [];
      throw error;
    });
  },
  readText,
  async writeMessage(state, agent, file, text) {
    await writeUntrusted(agentPaths(state, agent).dir, file, text).catch(refuseLink);
  },
  async move(state, agent, from, to) {
    return placeUntrusted(agentPaths(state, agent).dir, to, (at) => rename(from, at)).then(
      () => true,
      (error: NodeJS.ErrnoException) => (error.code === "ENOENT" ? false : refuseLink(error)),
    );
  },
  exists: pathExists,
  records: messageRecords,
};

/** Deliver a message now, with a fresh random id suffix: what `org send` and the verifier call. */
export async function sendMessage(
  state: string, outgoing: Outgoing, settings: MessageSettings, now = new Date(),
): Promise<{ id: string; files: string[] }> {
  const clock = { now, entropy: randomBytes(4).toString("hex") };
  return deliverMessage(mailPort, state, outgoing, settings, clock).catch(async (error: unknown) => {
    const outcome = await describeDelivery(state, outgoing.to, newMessageId(clock.now, clock.entropy));
    const refused = error instanceof OrgError && error.code === "untrusted-path";
    if (refused) throw new OrgError(`${error.message}; ${outcome}`, error.code);
    addOutcome(error, outcome);
  });
}

// An agent without the sandbox can swap its inbox (or a message's name) for a link: refused, nothing written there.
function refuseLink(error: NodeJS.ErrnoException): never {
  if (error.code !== "ELOOP" && error.code !== "ENOTDIR") throw error;
  throw new OrgError(`${error.message} — org writes the agents' inboxes itself: remove the link`, "untrusted-path");
}

// On a full disk (or a link refused) some inboxes may hold the message and others not: say which, so it is sent
// again only where it is missing.
async function describeDelivery(state: string, to: string[], id: string): Promise<string> {
  const landed = await Promise.all(to.map((agent) => pathExists(join(inboxPaths(state, agent).inbox, `${id}.md`))));
  const got = to.filter((_, index) => landed[index]);
  const missed = to.filter((_, index) => !landed[index]);
  if (got.length === 0) return "nothing was sent";
  if (missed.length === 0) return `${id} was delivered to ${got.join(", ")} but is missing from your sent log`;
  return `${id} was delivered to ${got.join(", ")} only — send it again to ${missed.join(", ")} then`;
}
