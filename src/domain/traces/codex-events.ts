// Codex's session log as events: sessions/YYYY/MM/DD/rollout-*.jsonl in CODEX_HOME (0.169.0).
import { readObject } from "../usage/token-counts.js";
import { clipText, describeCall, joinTexts, timeOf, type FileEvents, type TraceEvent } from "./events.js";

// Codex's own context, sent as user turns: <environment_context>…</environment_context> and the like.
const CONTEXT_TURN = /^\s*<([a-z_]+)>[\s\S]*<\/\1>\s*$/;
// A shell call's output opens with Codex's own header, up to "Output:".
const OUTPUT_HEADER = /^Chunk ID: [^\n]*\n(?:[^\n]*\n)*?Output:\n/;

/**
 * Every line is `{timestamp, type, payload}`; the conversation is in `response_item` lines (message, function_call,
 * function_call_output, custom_tool_call…). The `event_msg` lines repeat it for the UI and are left out.
 */
export function readCodexEvents(values: readonly unknown[]): FileEvents {
  const events: TraceEvent[] = [];
  let known = 0;
  let at = 0;
  for (const value of values) {
    const line = readObject(value);
    const payload = readObject(line, "payload");
    if (!line || typeof line.type !== "string" || !payload) continue;
    known++;
    if (line.type !== "response_item") continue;
    at = timeOf(line.timestamp, at);
    const event = readItem(payload, at);
    if (event) events.push(event);
  }
  return { events, known };
}

function readItem(item: Record<string, unknown>, at: number): TraceEvent | undefined {
  const id = typeof item.call_id === "string" ? { id: item.call_id } : {};
  if (item.type === "message" && (item.role === "user" || item.role === "assistant")) {
    const text = joinTexts(item.content, ["input_text", "output_text", "text"]);
    if (text.trim() === "" || (item.role === "user" && CONTEXT_TURN.test(text))) return undefined;
    return { kind: item.role, at, text: clipText(text) };
  }
  if ((item.type === "function_call" || item.type === "custom_tool_call") && typeof item.name === "string") {
    const command = describeCall(item.name, readArguments(item.arguments ?? item.input));
    return { kind: "call", at, tool: item.name, command, ...id };
  }
  if (item.type === "function_call_output" || item.type === "custom_tool_call_output") {
    const parts = readObject(item.output)?.content ?? item.output;
    const texts = ["input_text", "output_text", "text"];
    const output = typeof item.output === "string" ? item.output : joinTexts(parts, texts);
    return { kind: "result", at, text: clipText(output.replace(OUTPUT_HEADER, "")), ...id };
  }
  return undefined;
}

// A function call's arguments are a JSON string; a custom tool's input is plain text (a patch).
function readArguments(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return { command: value.split("\n")[0] };
  }
}
