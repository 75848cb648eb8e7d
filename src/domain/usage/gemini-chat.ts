// Gemini CLI's chat log, .gemini/tmp/<project>/chats/session-*.jsonl in GEMINI_CLI_HOME (0.61.0).
import { readCount, readObject, readTime, type LineReading, type ReadContext } from "./token-counts.js";

/**
 * Lines are a session header, `{$set: …}` updates, and messages `{id, timestamp, type, …}`; a model reply is type
 * "gemini" with `tokens` {input, output, cached, thoughts, tool}. The same message is written again when its tool
 * calls finish (same id): the tally counts it once. The router's and other tool-less side calls are not recorded.
 */
export function readGeminiLine(value: unknown, _context: ReadContext): LineReading {
  const line = readObject(value);
  if (!line) return { kind: "foreign" };
  const header = typeof line.sessionId === "string" && typeof line.projectHash === "string";
  const message = typeof line.id === "string" && typeof line.type === "string";
  if (!header && !message && !("$set" in line)) return { kind: "foreign" };
  if (line.type !== "gemini" || line.tokens === undefined) return { kind: "known" };
  const tokens = readObject(line, "tokens");
  const input = readCount(tokens?.input);
  const cached = readCount(tokens?.cached ?? 0);
  const output = readCount(tokens?.output);
  const thoughts = readCount(tokens?.thoughts ?? 0);
  const tool = readCount(tokens?.tool ?? 0);
  const at = readTime(line.timestamp);
  if (input === undefined || cached === undefined || output === undefined || thoughts === undefined
      || tool === undefined || cached > input) {
    return {
      kind: "malformed",
      why: `a gemini message has tokens in an unknown shape (${JSON.stringify(line.tokens).slice(0, 120)})`,
    };
  }
  if (at === undefined) return { kind: "malformed", why: "a gemini message has no timestamp" };
  // Gemini's prompt count includes the cached part; thoughts and tool-use prompts are billed apart from it.
  const counts = { input: input - cached + tool, output: output + thoughts, cacheRead: cached, cacheWrite: 0 };
  return {
    kind: "usage",
    record: { id: line.id as string, at, model: typeof line.model === "string" ? line.model : "unknown", ...counts },
  };
}
