// Gemini CLI's chat log as events: .gemini/tmp/<project>/chats/session-*.jsonl in GEMINI_CLI_HOME (0.61.0).
import { readObject } from "../usage/token-counts.js";
import { clipText, describeCall, joinTexts, timeOf, type FileEvents, type TraceEvent } from "./events.js";

/**
 * Lines are a session header, `{$set: …}` updates and messages `{id, timestamp, type, content}`. A model reply
 * ("gemini") is written again under the same id once its toolCalls finish, each with its result: the last
 * version counts, in the place of the first. A user message's functionResponse repeats those results.
 */
export function readGeminiEvents(values: readonly unknown[]): FileEvents {
  const messages = new Map<string, Record<string, unknown>>();
  let known = 0;
  for (const value of values) {
    const line = readObject(value);
    if (!line) continue;
    const header = typeof line.sessionId === "string" && typeof line.projectHash === "string";
    if (header || "$set" in line) known++;
    if (typeof line.id !== "string" || typeof line.type !== "string") continue;
    known++;
    messages.set(line.id, line);
  }
  const events: TraceEvent[] = [];
  let at = 0;
  for (const message of messages.values()) {
    at = timeOf(message.timestamp, at);
    const text = joinTexts(message.content);
    if (message.type === "user" && text.trim() !== "") events.push({ kind: "user", at, text: clipText(text) });
    if (message.type !== "gemini") continue;
    if (text.trim() !== "") events.push({ kind: "assistant", at, text: clipText(text) });
    for (const call of Array.isArray(message.toolCalls) ? message.toolCalls.map((entry) => readObject(entry)) : []) {
      if (!call || typeof call.name !== "string") continue;
      const id = typeof call.id === "string" ? { id: call.id } : {};
      events.push({ kind: "call", at, tool: call.name, command: describeCall(call.name, call.args), ...id });
      const output = readOutput(call);
      if (output === undefined) continue;
      events.push({ kind: "result", at: timeOf(call.timestamp, at), text: clipText(output), ...id });
    }
  }
  return { events, known };
}

// Gemini CLI wraps a shell's output for the model: <untrusted_context>, "Output: ", the process group, the close.
const WRAPPER = /^<untrusted_context>\n(?:Output: )?|\n?(?:Process Group PGID: \d+\n)?<\/untrusted_context>$/g;

// The model's view of the result (functionResponse.response.output), else what the screen showed.
function readOutput(call: Record<string, unknown>): string | undefined {
  const results = Array.isArray(call.result) ? call.result : [];
  const response = readObject(readObject(readObject(results[0]), "functionResponse"), "response");
  const output = response?.output ?? response?.error ?? call.resultDisplay;
  if (typeof output !== "string") return undefined;
  return output.replace(WRAPPER, "");
}
