import { randomBytes } from "node:crypto";
import { mkdir, readdir, rename } from "node:fs/promises";
import { dirname } from "node:path";
import type { MessageSettings } from "../org/config/schema.js";
import { deliverMessage, type Outgoing } from "../org/messages/deliver.js";
import type { MailPort } from "../org/messages/mail-port.js";
import { appendLines, pathExists, readText, writeFileAtomic } from "./files.js";

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
  appendLines,
  async move(from, to) {
    await mkdir(dirname(to), { recursive: true });
    return rename(from, to).then(() => true, (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return false;
      throw error;
    });
  },
  exists: pathExists,
};

/** Deliver a message now, with a fresh random id suffix: what `org send` and the verifier call. */
export function sendMessage(state: string, outgoing: Outgoing, settings: MessageSettings, now = new Date()): Promise<{ id: string; files: string[] }> {
  return deliverMessage(mailPort, state, outgoing, settings, { now, entropy: randomBytes(4).toString("hex") });
}
