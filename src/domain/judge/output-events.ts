// Codex's and opencode's headless JSON: one event per line, among the lines a CLI writes to stderr.
import { addCounts, readCount, readObject, type TokenCounts } from "../usage/token-counts.js";
import { readModelCounts, unknownUsage, type JudgeOutput } from "./judge-usage.js";

/** The lines of the output that are JSON objects; a warning or a stack trace between them is skipped. */
function listEvents(raw: string): Record<string, unknown>[] {
  return raw.split("\n").flatMap((line) => {
    if (!line.trimStart().startsWith("{")) return [];
    try {
      const value = readObject(JSON.parse(line));
      return value && typeof value.type === "string" ? [value] : [];
    } catch {
      return [];
    }
  });
}

/**
 * `codex exec --json`: `item.completed` events carry the agent's messages, `turn.completed` the turn's usage.
 * `input_tokens` is the whole prompt, the cached (and cache-written) tokens among it; reasoning is part of output.
 */
export function readCodexEvents(raw: string, model: string): JudgeOutput {
  const events = listEvents(raw);
  const messages = events.map((event) => readObject(event, "item"))
    .filter((item) => item?.type === "agent_message" && typeof item.text === "string");
  const text = messages.length > 0 ? messages.map((item) => item!.text as string).join("\n") : raw;
  const turns = events.filter((event) => event.type === "turn.completed");
  if (turns.length === 0) return { text, usage: unknownUsage("Codex printed no turn.completed event with its usage") };
  let sum: TokenCounts | undefined;
  for (const turn of turns) {
    const names = { input: "input_tokens", output: "output_tokens", cacheRead: "cached_input_tokens",
      cacheWrite: "cache_write_input_tokens" };
    const counts = readModelCounts(readObject(turn, "usage"), names, "Codex's turn.completed usage");
    if (typeof counts === "string") return { text, usage: unknownUsage(counts) };
    if (counts.cacheRead + counts.cacheWrite > counts.input) {
      return { text, usage: unknownUsage("Codex's turn.completed usage caches more than its input") };
    }
    const own = { ...counts, input: counts.input - counts.cacheRead - counts.cacheWrite };
    sum = sum ? addCounts(sum, own) : own;
  }
  return { text, usage: { kind: "counted", byModel: { [model]: sum! } } };
}

/**
 * `opencode run --format json`: `text` events carry the answer's parts, each `step_finish` a step's tokens
 * (input without the cache; reasoning billed as output) and opencode's own cost.
 */
export function readOpencodeEvents(raw: string, model: string): JudgeOutput {
  const events = listEvents(raw);
  const parts = events.filter((event) => event.type === "text").map((event) => readObject(event, "part")?.text)
    .filter((part): part is string => typeof part === "string");
  const text = parts.length > 0 ? parts.join("\n") : raw;
  const steps = events.filter((event) => event.type === "step_finish").map((event) => readObject(event, "part"));
  if (steps.length === 0) return { text, usage: unknownUsage("opencode printed no step_finish event with its tokens") };
  let sum: TokenCounts | undefined;
  let cliUsd: number | undefined = 0;
  for (const step of steps) {
    const tokens = readObject(step, "tokens");
    const cache = readObject(tokens, "cache");
    const fields = { ...tokens, read: cache?.read, write: cache?.write };
    const names = { input: "input", output: "output", cacheRead: "read", cacheWrite: "write" };
    const counts = readModelCounts(fields, names, "opencode's step_finish tokens");
    const reasoning = readCount(tokens?.reasoning ?? 0);
    if (typeof counts === "string") return { text, usage: unknownUsage(counts) };
    const why = "opencode's step_finish has no whole-number reasoning";
    if (reasoning === undefined) return { text, usage: unknownUsage(why) };
    const own = { ...counts, output: counts.output + reasoning };
    sum = sum ? addCounts(sum, own) : own;
    const cost = step?.cost;
    const priced = typeof cost === "number" && Number.isFinite(cost) && cost >= 0;
    cliUsd = priced && cliUsd !== undefined ? cliUsd + cost : undefined;
  }
  return { text, usage: { kind: "counted", byModel: { [model]: sum! }, ...(cliUsd === undefined ? {} : { cliUsd }) } };
}
