// Read receipts (state/agents/<agent>/inbox/receipts/<id>.json, archived as inbox/archive/<id>.read.json) and sent
// logs (state/messages/sent/<from>.jsonl): the only module that names, reads or writes them, through a schema.
import { rename } from "node:fs/promises";
import { join } from "node:path";
import * as z from "zod";
import { receiptIds } from "../../domain/messages/deliver.js";
import type { MessageRecords, Receipt, SentRecord } from "../../domain/messages/mail-port.js";
import { MESSAGE_ID } from "../../domain/messages/message-head.js";
import { agentPaths } from "../../domain/paths.js";
import { appendLines } from "../fs/files.js";
import { listUntrusted, placeUntrusted, readUntrusted, writeUntrusted } from "../fs/untrusted.js";

const ReceiptSchema = z.object({ id: z.string().regex(MESSAGE_ID), by: z.string(), at: z.iso.datetime() });
const SentRecordSchema = z.object({
  id: z.string().regex(MESSAGE_ID), from: z.string(), to: z.array(z.string()), kind: z.string(), time: z.string(),
  summary: z.string(),
});

// A sent log only grows (a line per message): read whole up to a cap far above any run's, never a disk's worth.
const SENT_LOG_MAX_BYTES = 256 * 1024 * 1024;

/** Where one agent's receipts live: beside its unread messages, and beside the ones archived. */
function receiptFiles(state: string, agent: string, id: string): { inbox: string; archive: string } {
  const { inbox } = agentPaths(state, agent);
  return { inbox: join(inbox, "receipts", `${id}.json`), archive: join(inbox, "archive", `${id}.read.json`) };
}

/** The sender's log of what it sent, one JSON line per message. */
function sentLogFile(state: string, from: string): string {
  return join(state, "messages", "sent", `${from}.jsonl`);
}

// Without a sandbox an agent can write its own state folder: a bad record is a warning and no record, never a crash.
function warnBadRecord(file: string, reason: string): void {
  process.stderr.write(`org: ${file}: ${reason} — org writes these records itself: remove the file\n`);
}

async function readAgentFile(state: string, agent: string, file: string): Promise<string | undefined> {
  return readUntrusted(agentPaths(state, agent).dir, file).catch((error: Error) => {
    warnBadRecord(file, error.message);
    return undefined;
  });
}

/** The real MessageRecords: receipts written by rename through no link, sent logs appended whole lines at a time. */
export const messageRecords: MessageRecords = {
  async listReceipts(state, agent) {
    const { dir, inbox } = agentPaths(state, agent);
    // A folder absent or refused (a link) holds no receipts; a link inside is not one.
    const names = async (folder: string) => (await listUntrusted(dir, folder).catch(() => []))
      .filter(({ path, entry }) => entry.isFile() && !path.includes("/")).map(({ path }) => path);
    const archived = (await names(join(inbox, "archive"))).filter((name) => name.endsWith(".read.json"));
    const unread = receiptIds(await names(join(inbox, "receipts")));
    return { inbox: unread, archive: archived.map((name) => name.slice(0, -".read.json".length)) };
  },
  async readReceipt(state, agent, id) {
    const files = receiptFiles(state, agent, id);
    for (const file of [files.inbox, files.archive]) {
      const text = await readAgentFile(state, agent, file);
      if (text === undefined) continue;
      const parsed = ReceiptSchema.safeParse(parseJson(text));
      if (parsed.success && parsed.data.id === id) return { at: parsed.data.at };
      warnBadRecord(file, `not a read receipt of ${id} ({ id, by, at }): counted as read, at an unknown time`);
      return { at: null };
    }
    return undefined;
  },
  async writeReceipt(state, agent, receipt: Receipt, archived) {
    const files = receiptFiles(state, agent, receipt.id);
    const file = archived ? files.archive : files.inbox;
    await writeUntrusted(agentPaths(state, agent).dir, file, `${JSON.stringify(receipt)}\n`);
  },
  async archiveReceipt(state, agent, id) {
    const files = receiptFiles(state, agent, id);
    await placeUntrusted(agentPaths(state, agent).dir, files.archive, (at) => rename(files.inbox, at)).catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOENT") throw error;
      },
    );
  },
  async appendSent(state, record: SentRecord) {
    await appendLines(sentLogFile(state, record.from), [JSON.stringify(record)]);
  },
  async readSent(state, from, limit) {
    const file = sentLogFile(state, from);
    const text = (await readUntrusted(join(state, "messages"), file, SENT_LOG_MAX_BYTES).catch((error: Error) => {
      warnBadRecord(file, error.message);
      return undefined;
    })) ?? "";
    const lines = text.split("\n").filter(Boolean);
    return lines.slice(-limit).flatMap((line, index): SentRecord[] => {
      const parsed = SentRecordSchema.safeParse(parseJson(line));
      if (parsed.success) return [parsed.data];
      warnBadRecord(file, `line ${Math.max(lines.length - limit, 0) + index + 1} is not a sent record`);
      return [];
    });
  },
};

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
