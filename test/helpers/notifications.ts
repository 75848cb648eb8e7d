import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { NotificationLine } from "../../src/adapters/store/notification-log.js";

/** What became of each notice typed into `agent`'s pane, oldest first: its notifications.jsonl, [] before any. */
export function readNotifications(state: string, agent: string): NotificationLine[] {
  const file = join(state, "agents", agent, "notifications.jsonl");
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as NotificationLine);
}
