import { join } from "node:path";
import { MessagesSchema, type MessageSettings, type OrgConfig } from "../config/index.js";
import { agentPaths } from "../paths.js";

/** The few file operations messages need; src/adapters/store/inbox-files.ts is the real one. */
export interface MailPort {
  /** File names in a folder; none when it does not exist. */
  listNames(dir: string): Promise<string[]>;
  readText(path: string): Promise<string | undefined>;
  writeAtomic(path: string, text: string): Promise<void>;
  appendLines(path: string, lines: string[]): Promise<void>;
  /** Rename into place, making the target's folder; false when the source is already gone. */
  move(from: string, to: string): Promise<boolean>;
  exists(path: string): Promise<boolean>;
}

/** One agent's inbox: messages as <id>.md, read receipts as receipts/<id>.json, old read messages in archive/. */
export function inboxPaths(state: string, agent: string): { inbox: string; receipts: string; archive: string; notifications: string } {
  const { dir, inbox } = agentPaths(state, agent);
  return { inbox, receipts: join(inbox, "receipts"), archive: join(inbox, "archive"), notifications: join(dir, "notifications.jsonl") };
}

/** What a sender (agent, person or verifier) has sent, one JSON line per message. */
export function sentLogFile(state: string, from: string): string {
  return join(state, "messages", "sent", `${from}.jsonl`);
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
