import { join } from "node:path";
import { MessagesSchema, type MessageSettings, type OrgConfig } from "../config/index.js";
import { agentPaths } from "../paths.js";

/** The few file operations messages need; src/adapters/store/inbox-files.ts is the real one. */
export interface MailPort {
  /** File names in a folder; none when it does not exist. */
  listNames(dir: string): Promise<string[]>;
  readText(path: string): Promise<string | undefined>;
  /** Writes `file`, below the agent's state folder, atomically and through no link (an agent may have made one). */
  writeMessage(state: string, agent: string, file: string, text: string): Promise<void>;
  /** Renames into place below the agent's state folder, through no link; false when the source is already gone. */
  move(state: string, agent: string, from: string, to: string): Promise<boolean>;
  exists(path: string): Promise<boolean>;
  /** Receipts and sent logs: src/adapters/store/message-records.ts owns their files. */
  records: MessageRecords;
}

/** Read receipts and sent logs, read through a schema: a bad record is absent. */
export interface MessageRecords {
  /** Ids with a receipt beside the unread messages, and beside the archived ones. */
  listReceipts(state: string, agent: string): Promise<{ inbox: string[]; archive: string[] }>;
  /** When the message was read; at is null for a receipt that is not one (still read), undefined with no receipt. */
  readReceipt(state: string, agent: string, id: string): Promise<{ at: string | null } | undefined>;
  writeReceipt(state: string, agent: string, receipt: Receipt, archived: boolean): Promise<void>;
  /** Moves a message's receipt along with it into the archive; nothing when it has none. */
  archiveReceipt(state: string, agent: string, id: string): Promise<void>;
  appendSent(state: string, record: SentRecord): Promise<void>;
  /** The newest `limit` records of what `from` sent, oldest first. */
  readSent(state: string, from: string, limit: number): Promise<SentRecord[]>;
}

/** One agent's inbox: messages as <id>.md, old messages in archive/ (receipts: see MessageRecords). */
export function inboxPaths(state: string, agent: string): { inbox: string; archive: string } {
  const { inbox } = agentPaths(state, agent);
  return { inbox, archive: join(inbox, "archive") };
}

/** One line of a sent log. */
export interface SentRecord {
  id: string;
  from: string;
  to: string[];
  kind: string;
  time: string;
  /** The body's first line, shortened: enough for a person to recognise the message. */
  summary: string;
}

/** A receipt file's content. */
export interface Receipt {
  id: string;
  by: string;
  at: string;
}

/** The messages section of org.yaml with every default filled in. */
export function readMessageSettings(config: OrgConfig | undefined): MessageSettings {
  return config?.messages ?? MessagesSchema.parse({});
}
