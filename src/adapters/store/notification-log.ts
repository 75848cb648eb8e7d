// state/agents/<agent>/notifications.jsonl, what became of each pane notification: the only module that names or
// writes it. It lies in the agent's state folder, which an agent without the sandbox can write: no link is followed.
import { join } from "node:path";
import type { NoticeOutcome } from "../../domain/messages/notify.js";
import { agentPaths } from "../../domain/paths.js";
import { appendUntrusted } from "../fs/untrusted.js";

/** One line of the log: a batch of notices and what typing them into `pane` came to. */
export interface NotificationLine {
  at: string;
  outcome: NoticeOutcome;
  attempts?: number;
  latencyMs?: number;
  reason?: string;
  ids: string[];
  from: string[];
  pane: string;
  detectMs: number;
}

/** Appends `line` to the agent's log; a link (or a folder swapped for one) on the way is an error, nothing written. */
export async function appendNotification(state: string, agent: string, line: NotificationLine): Promise<void> {
  const { dir } = agentPaths(state, agent);
  await appendUntrusted(dir, join(dir, "notifications.jsonl"), [JSON.stringify(line)]);
}
