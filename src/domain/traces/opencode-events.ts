// opencode's messages as events: the `message` and `part` tables of opencode/opencode.db in XDG_DATA_HOME (1.18.33).
import { compareCodeUnits } from "../code-unit-order.js";
import { parseJsonText } from "../json-fields.js";
import { readObject } from "../usage/token-counts.js";
import { clipText, describeCall, timeOf, type FileEvents, type TraceEvent } from "./events.js";

/** A row of the part table: its message, its creation time (epoch ms) and its JSON data. */
export interface OpencodePart {
  id: string;
  messageId: string;
  at: number;
  data: string;
}

/**
 * A message's role is in its row's data; what it said and did is in its parts: text, and tool parts whose state
 * holds the input (a bash command) and, once done, the output or error. Synthetic text is opencode's own.
 */
export function readOpencodeEvents(messages: ReadonlyMap<string, string>, parts: readonly OpencodePart[]): FileEvents {
  const roles = new Map<string, string>();
  for (const [id, data] of messages) {
    const role = readObject(parseJsonText(data))?.role;
    if (typeof role === "string") roles.set(id, role);
  }
  const events: TraceEvent[] = [];
  let known = roles.size;
  const ordered = [...parts].sort((a, b) => a.at - b.at || compareCodeUnits(a.id, b.id));
  for (const part of ordered) {
    const data = readObject(parseJsonText(part.data));
    const role = roles.get(part.messageId);
    if (!data || typeof data.type !== "string" || !role) continue;
    known++;
    const at = timeOf(part.at, 0);
    if (data.type === "text" && typeof data.text === "string" && data.synthetic !== true && data.text.trim() !== "") {
      events.push({ kind: role === "user" ? "user" : "assistant", at, text: clipText(data.text) });
    }
    if (data.type !== "tool" || typeof data.tool !== "string") continue;
    const state = readObject(data, "state");
    const id = typeof data.callID === "string" ? { id: data.callID } : {};
    events.push({ kind: "call", at, tool: data.tool, command: describeCall(data.tool, state?.input), ...id });
    const output = state?.output ?? state?.error;
    const end = timeOf(readObject(state, "time")?.end, at);
    if (typeof output === "string") events.push({ kind: "result", at: end, text: clipText(output), ...id });
  }
  return { events, known };
}
