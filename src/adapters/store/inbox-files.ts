import { randomBytes } from "node:crypto";
import { mkdir, readdir, rename } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { MessageSettings } from "../../domain/config/index.js";
import { deliverMessage, type Outgoing } from "../../domain/messages/deliver.js";
import { newMessageId } from "../../domain/messages/message-head.js";
import { inboxPaths, type MailPort } from "../../domain/messages/mail-port.js";
import { addOutcome } from "../fs/disk-space.js";
import { messageRecords } from "./message-records.js";
import { pathExists, readText, writeFileAtomic } from "../fs/files.js";

/** Inboxes on disk: atomic writes, O_APPEND logs, renames into the archive. */
export const mailPort: MailPort = {
  async listNames(dir) {
    return readdir(dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return [];
      throw error;
    });
  },
  readText,
  writeAtomic: writeFileAtomic,
  async move(from, to) {
    await mkdir(dirname(to), { recursive: true });
    return rename(from, to).then(() => true, (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return false;
      throw error;
    });
  },
  exists: pathExists,
  records: messageRecords,
};

/** Deliver a message now, with a fresh random id suffix: what `org send` and the verifier call. */
export async function sendMessage(state: string, outgoing: Outgoing, settings: MessageSettings, now = new Date()): Promise<{ id: string; files: string[] }> {
  const clock = { now, entropy: randomBytes(4).toString("hex") };
  return deliverMessage(mailPort, state, outgoing, settings, clock).catch(async (error: unknown) => {
    addOutcome(error, await describeDelivery(state, outgoing.to, newMessageId(clock.now, clock.entropy)));
  });
}

// On a full disk some inboxes may hold the message and others not: say which, so it is sent again only where it is missing.
async function describeDelivery(state: string, to: string[], id: string): Promise<string> {
  const landed = await Promise.all(to.map((agent) => pathExists(join(inboxPaths(state, agent).inbox, `${id}.md`))));
  const got = to.filter((_, index) => landed[index]);
  const missed = to.filter((_, index) => !landed[index]);
  if (got.length === 0) return "nothing was sent";
  if (missed.length === 0) return `${id} was delivered to ${got.join(", ")} but is missing from your sent log`;
  return `${id} was delivered to ${got.join(", ")} only — send it again to ${missed.join(", ")} then`;
}
