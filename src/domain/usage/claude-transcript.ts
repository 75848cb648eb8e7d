// Claude Code's conversation log, projects/<munged cwd>/<session>.jsonl in CLAUDE_CONFIG_DIR (2.1.328).
import { readCount, readObject, readTime, type LineReading, type ReadContext } from "./token-counts.js";

/**
 * An assistant line holds its API reply's `message.usage`. One reply with several content blocks (text, then a tool
 * call) is written as several lines with the same `message.id` and the same usage: the id makes the tally count it
 * once.
 */
export function readClaudeLine(value: unknown, _context: ReadContext): LineReading {
  const line = readObject(value);
  if (!line || typeof line.type !== "string") return { kind: "foreign" };
  if (line.type !== "assistant") return { kind: "known" };
  const message = readObject(line, "message");
  const usage = readObject(message, "usage");
  // Claude Code's own notices (an API error shown as a reply) are "<synthetic>" and cost nothing.
  if (!message || !usage || message.model === "<synthetic>") return { kind: "known" };
  const counts = {
    input: readCount(usage.input_tokens),
    output: readCount(usage.output_tokens),
    cacheRead: readCount(usage.cache_read_input_tokens ?? 0),
    cacheWrite: readCount(usage.cache_creation_input_tokens ?? 0),
  };
  const reply = [message.id, line.requestId, line.uuid].find((candidate) => typeof candidate === "string");
  // Reply ids are the server's: a local server may count them afresh, so the session scopes them.
  const id = typeof reply === "string"
    ? `${typeof line.sessionId === "string" ? line.sessionId : ""}:${reply}`
    : undefined;
  const at = readTime(line.timestamp);
  const bad = Object.entries(counts).find(([, count]) => count === undefined);
  if (bad) return {
    kind: "malformed",
    why: `an assistant line's message.usage has no whole-number ${bad[0]} (${JSON.stringify(usage).slice(0, 120)})`,
  };
  if (id === undefined || at === undefined) return {
    kind: "malformed",
    why: "an assistant line has no message.id or no timestamp",
  };
  return {
    kind: "usage",
    record: {
      id,
      at,
      model: typeof message.model === "string" ? message.model : "unknown",
      ...(counts as { input: number; output: number; cacheRead: number; cacheWrite: number }),
    },
  };
}
