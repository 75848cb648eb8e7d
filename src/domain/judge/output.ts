// What a judge's CLI printed in its machine-readable mode: the answer's text, and the run's tokens where it says them.
import type { TokenCounts } from "../usage/token-counts.js";
import { readCount, readObject } from "../usage/token-counts.js";
import { readModelCounts, unknownUsage, type JudgeOutput } from "./judge-usage.js";
import type { JudgePreset } from "./judge-argv.js";
import { readCodexEvents, readOpencodeEvents } from "./output-events.js";
import { listJsonObjects } from "./json-scan.js";

/**
 * `model` names the model for a CLI whose output does not (Codex, opencode): the one its config sets. Output that is
 * not the CLI's format (a crash before it printed any) keeps its whole text, its usage unknown.
 */
export function readJudgeOutput(preset: JudgePreset, raw: string, model = "unknown"): JudgeOutput {
  switch (preset) {
    case "claude":
      return readClaudeResult(raw);
    case "gemini":
      return readGeminiResult(raw);
    case "codex":
      return readCodexEvents(raw, model);
    case "opencode":
      return readOpencodeEvents(raw, model);
  }
}

/** `claude -p --output-format json`: one `{type: "result", result, modelUsage, total_cost_usd}` object. */
function readClaudeResult(raw: string): JudgeOutput {
  const result = listJsonObjects(raw).filter((value) => value.type === "result").at(-1);
  if (!result) return { text: raw, usage: unknownUsage("Claude Code printed no result object") };
  const text = typeof result.result === "string" ? result.result : raw;
  const models = readObject(result, "modelUsage");
  if (!models) return { text, usage: unknownUsage("Claude Code's result has no modelUsage") };
  const names = {
    input: "inputTokens", output: "outputTokens", cacheRead: "cacheReadInputTokens",
    cacheWrite: "cacheCreationInputTokens",
  };
  const byModel: Record<string, TokenCounts> = {};
  for (const [model, fields] of Object.entries(models)) {
    const counts = readModelCounts(readObject(fields), names, `Claude Code's modelUsage."${model}"`);
    if (typeof counts === "string") return { text, usage: unknownUsage(counts) };
    byModel[model] = counts;
  }
  const usd = result.total_cost_usd;
  const cliUsd = typeof usd === "number" && Number.isFinite(usd) && usd >= 0 ? { cliUsd: usd } : {};
  return { text, usage: { kind: "counted", byModel, ...cliUsd } };
}

/**
 * `gemini --output-format json`: `{response, stats: {models: {<model>: {tokens}}}}`, its router call a model of its
 * own. `prompt` includes the cached tokens; thoughts are billed as output, tool-use prompts as input.
 */
function readGeminiResult(raw: string): JudgeOutput {
  const result = listJsonObjects(raw).filter((value) => "response" in value || "stats" in value).at(-1);
  if (!result) return { text: raw, usage: unknownUsage("Gemini CLI printed no JSON result") };
  const text = typeof result.response === "string" ? result.response : raw;
  const models = readObject(readObject(result, "stats"), "models");
  if (!models) return { text, usage: unknownUsage("Gemini CLI's result has no stats.models") };
  const byModel: Record<string, TokenCounts> = {};
  for (const [model, fields] of Object.entries(models)) {
    const tokens = readObject(readObject(fields), "tokens");
    const what = `Gemini CLI's stats.models."${model}".tokens`;
    const counts = readModelCounts(tokens, { input: "prompt", output: "candidates", cacheRead: "cached" }, what);
    if (typeof counts === "string") return { text, usage: unknownUsage(counts) };
    const tool = readCount(tokens?.tool ?? 0);
    const thoughts = readCount(tokens?.thoughts ?? 0);
    if (tool === undefined || thoughts === undefined || counts.cacheRead > counts.input) {
      return { text, usage: unknownUsage(`${what} are in an unknown shape (${JSON.stringify(tokens).slice(0, 120)})`) };
    }
    const input = counts.input - counts.cacheRead + tool;
    byModel[model] = { input, output: counts.output + thoughts, cacheRead: counts.cacheRead, cacheWrite: 0 };
  }
  return { text, usage: { kind: "counted", byModel } };
}
