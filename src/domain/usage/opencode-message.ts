// opencode's messages: rows of the `message` table of opencode/opencode.db in XDG_DATA_HOME (1.18.33).
import { readCount, readObject, readTime, type LineReading } from "./token-counts.js";

/**
 * A row's `data` is JSON; an assistant message holds its reply's `tokens` {input, output, reasoning, cache: {read,
 * write}} once `time.completed` is set (until then the counts are still zero). input already excludes the cache.
 */
export function readOpencodeMessage(id: string, data: string): LineReading {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return { kind: "malformed", why: `message ${id} holds data that is not JSON` };
  }
  const message = readObject(value);
  if (!message || typeof message.role !== "string") return { kind: "foreign" };
  const time = readObject(message, "time");
  if (message.role !== "assistant" || time?.completed === undefined) return { kind: "known" };
  const tokens = readObject(message, "tokens");
  const cache = readObject(tokens, "cache");
  const counts = {
    input: readCount(tokens?.input),
    output: readCount(tokens?.output),
    reasoning: readCount(tokens?.reasoning ?? 0),
    cacheRead: readCount(cache?.read ?? 0),
    cacheWrite: readCount(cache?.write ?? 0),
  };
  const at = readTime(time.completed);
  if (Object.values(counts).some((count) => count === undefined) || at === undefined) {
    return {
      kind: "malformed",
      why: `message ${id} has tokens in an unknown shape (${JSON.stringify(message.tokens).slice(0, 120)})`,
    };
  }
  const { input, output, reasoning, cacheRead, cacheWrite } = counts as Record<keyof typeof counts, number>;
  // Reasoning is billed as output; opencode keeps it apart from output.
  return {
    kind: "usage",
    record: {
      id,
      at,
      model: typeof message.modelID === "string" ? message.modelID : "unknown",
      input,
      output: output + reasoning,
      cacheRead,
      cacheWrite,
    },
  };
}
