// Codex's session log, sessions/YYYY/MM/DD/rollout-*.jsonl in CODEX_HOME (0.169.0).
import {
  readCount, readObject, readTime, type LineReading, type ReadContext, type TokenCounts,
} from "./token-counts.js";

/**
 * 0.169 writes a `token_usage_record` per reply, with its response id: that is what is counted. Older rollouts have
 * only `token_count` events; there a reply is a change of the running total (the same event may repeat).
 * Every line is `{timestamp, type, payload}`; `turn_context` names the model of the turns that follow.
 */
export function readCodexLine(value: unknown, context: ReadContext): LineReading {
  const line = readObject(value);
  const payload = readObject(line, "payload");
  if (!line || typeof line.type !== "string" || !payload) return { kind: "foreign" };
  if (line.type === "turn_context" && typeof payload.model === "string") context.model = payload.model;
  const at = readTime(line.timestamp);
  if (line.type === "token_usage_record") {
    context.perReply = true;
    const counts = readCodexUsage(readObject(payload, "usage"));
    if (typeof counts === "string") return { kind: "malformed", why: `a token_usage_record ${counts}` };
    if (typeof payload.response_id !== "string" || at === undefined) return {
      kind: "malformed",
      why: "a token_usage_record has no response_id or no timestamp",
    };
    // Response ids are the server's: a local server may count them afresh, so the thread scopes them.
    const thread = [payload.thread_id, payload.session_id].find((candidate) => typeof candidate === "string") ?? "";
    return {
      kind: "usage",
      record: { id: `${thread}:${payload.response_id}`, at, model: String(context.model ?? "unknown"), ...counts },
    };
  }
  if (line.type !== "event_msg" || payload.type !== "token_count" || context.perReply) return { kind: "known" };
  const info = readObject(payload, "info");
  // Rate-limit updates come as token_count events without info.
  if (!info) return { kind: "known" };
  const total = readCount(readObject(info, "total_token_usage")?.total_tokens);
  const counts = readCodexUsage(readObject(info, "last_token_usage"));
  if (typeof counts === "string" || total === undefined || at === undefined) return {
    kind: "malformed",
    why: `a token_count `
      + `event ${typeof counts === "string" ? counts : "has no total_token_usage.total_tokens or no timestamp"}`,
  };
  if (total === context.lastTotal) return { kind: "known" };
  context.lastTotal = total;
  return {
    kind: "usage",
    record: { id: `token_count:${total}:${at}`, at, model: String(context.model ?? "unknown"), ...counts },
  };
}

// OpenAI's convention: input_tokens is the whole prompt, cached (and, where reported,
// cache-written) tokens are part of it.
function readCodexUsage(usage: Record<string, unknown> | undefined): TokenCounts | string {
  if (!usage) return "has no usage";
  const all = readCount(usage.input_tokens);
  const cacheRead = readCount(usage.cached_input_tokens ?? 0);
  const cacheWrite = readCount(usage.cache_write_input_tokens ?? 0);
  const output = readCount(usage.output_tokens);
  if (all === undefined || cacheRead === undefined || cacheWrite === undefined || output === undefined
      || cacheRead + cacheWrite > all) {
    return `has usage in an unknown shape (${JSON.stringify(usage).slice(0, 120)})`;
  }
  return { input: all - cacheRead - cacheWrite, output, cacheRead, cacheWrite };
}
