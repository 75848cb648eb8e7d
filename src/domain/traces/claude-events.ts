// Claude Code's conversation log as events: projects/<munged cwd>/<session>.jsonl in CLAUDE_CONFIG_DIR (2.1.328).
import { readObject } from "../usage/token-counts.js";
import { clipText, describeCall, joinTexts, timeOf, type FileEvents, type TraceEvent } from "./events.js";

/**
 * A user line holds the prompt or typed text (a string or text blocks) or tool results; an assistant line holds one
 * content block of a reply: text, a tool_use, or thinking (left out). isMeta lines are Claude Code's own reminders.
 */
export function readClaudeEvents(values: readonly unknown[]): FileEvents {
  const events: TraceEvent[] = [];
  let known = 0;
  let at = 0;
  for (const value of values) {
    const line = readObject(value);
    if (!line || typeof line.type !== "string") continue;
    known++;
    const message = readObject(line, "message");
    if ((line.type !== "user" && line.type !== "assistant") || !message || line.isMeta === true) continue;
    at = timeOf(line.timestamp, at);
    const content = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
    if (!Array.isArray(content)) continue;
    for (const block of content.map((part) => readObject(part))) {
      if (!block) continue;
      if (block.type === "text" && typeof block.text === "string" && block.text.trim() !== "") {
        events.push({ kind: line.type, at, text: clipText(block.text) });
      } else if (block.type === "tool_use" && typeof block.name === "string") {
        const command = describeCall(block.name, block.input);
        events.push({ kind: "call", at, tool: block.name, command, ...idOf(block.id) });
      } else if (block.type === "tool_result") {
        events.push({ kind: "result", at, text: clipText(joinTexts(block.content)), ...idOf(block.tool_use_id) });
      }
    }
  }
  return { events, known };
}

function idOf(id: unknown): { id?: string } {
  return typeof id === "string" ? { id } : {};
}
