import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseJudgeAnswer, readJudgeOutput, type JudgePreset } from "../../../src/domain/judge/index.js";

// Each CLI's headless machine-readable output as it printed it, run by org's judge argv behind the scripted model
// server (Claude Code 2.1.328, Codex 0.169.0, Gemini CLI 0.61.0, opencode 1.18.33), stderr's warnings included.
const FIXTURES = join(import.meta.dirname, "..", "..", "fixtures", "judge-output");
const fixture = (cli: JudgePreset) => readFileSync(join(FIXTURES, `${cli}.out`), "utf8");
const WEIGHTS = { design: 0.5, craft: 0.5 };
const SCORED = { kind: "scored", score: 0.85, scores: { design: 0.9, craft: 0.8 }, reason: "scripted" };
const ANSWER = 'Here it is:\n{"scores":{"design":0.9,"craft":0.8},"reason":"scripted"}';

describe("a judge's usage, read from its CLI's headless JSON", () => {
  // The server's usage of each reply, exactly: input without the cache, the cache apart.
  it.each<[JudgePreset, string | undefined, object]>([
    ["claude", undefined, {
      byModel: { "claude-opus-5-5": { input: 1000, output: 40, cacheRead: 300, cacheWrite: 50 } },
      cliUsd: 0.005110000000000001,
    }],
    ["codex", "gpt-scripted", {
      byModel: { "gpt-scripted": { input: 1007, output: 41, cacheRead: 301, cacheWrite: 0 } },
    }],
    ["gemini", undefined, { byModel: {
      "gemini-3.5-flash-lite": { input: 1014, output: 42, cacheRead: 302, cacheWrite: 0 },
      "gemini-3.1-pro-preview": { input: 1021, output: 43, cacheRead: 303, cacheWrite: 0 },
    } }],
    ["opencode", "model", {
      byModel: { model: { input: 1035, output: 45, cacheRead: 305, cacheWrite: 0 } }, cliUsd: 0,
    }],
  ])("%s: the tokens per model, and the answer read from its text", (cli, model, usage) => {
    const output = readJudgeOutput(cli, fixture(cli), model);
    expect(output.usage).toEqual({ kind: "counted", ...usage });
    expect(output.text).toBe(ANSWER);
    const answer = parseJudgeAnswer(output.text, WEIGHTS);
    expect(answer).toMatchObject({ ...SCORED, score: expect.closeTo(0.85, 9) as number });
  });

  it("names no model where the output names none and the config set none", () => {
    const usage = readJudgeOutput("codex", fixture("codex")).usage as { byModel: object };
    expect(Object.keys(usage.byModel)).toEqual(["unknown"]);
  });

  it.each<[JudgePreset, string, string, string]>([
    ["claude", '"inputTokens":1000', '"inputTokens":"many"',
      'Claude Code\'s modelUsage."claude-opus-5-5" has no whole-number input ({"inputTokens":"many",'],
    ["claude", '"modelUsage"', '"modelUsageX"', "Claude Code's result has no modelUsage"],
    ["codex", '"output_tokens":41', '"output_tokens":-1',
      'Codex\'s turn.completed usage has no whole-number output ({"input_tokens":1308,'],
    ["codex", '"cached_input_tokens":301', '"cached_input_tokens":9999',
      "Codex's turn.completed usage caches more than its input"],
    ["codex", "turn.completed", "turn.failed", "Codex printed no turn.completed event with its usage"],
    ["gemini", '"candidates": 43', '"candidates": 4.5',
      'Gemini CLI\'s stats.models."gemini-3.1-pro-preview".tokens has no whole-number output ({"input":1021,'],
    ["gemini", '"stats"', '"statz"', "Gemini CLI's result has no stats.models"],
    ["opencode", '"reasoning":0', '"reasoning":"x"', "opencode's step_finish has no whole-number reasoning"],
    ["opencode", "step_finish", "step_done", "opencode printed no step_finish event with its tokens"],
  ])("%s: usage malformed (%s → %s) is unknown, the answer unchanged", (cli, from, to, why) => {
    const output = readJudgeOutput(cli, fixture(cli).replace(from, to), "m");
    expect(output.usage.kind).toBe("unknown");
    expect((output.usage as { why: string }).why.startsWith(why)).toBe(true);
    expect(output.text).toBe(ANSWER);
  });

  it("output that is not the CLI's format keeps its whole text as the answer, its usage unknown", () => {
    const crashed = "Error: connect ECONNREFUSED 127.0.0.1:9\n";
    expect(readJudgeOutput("claude", crashed)).toEqual({
      text: crashed, usage: { kind: "unknown", why: "Claude Code printed no result object" },
    });
    const gemini = readJudgeOutput("gemini", crashed).usage;
    expect(gemini).toEqual({ kind: "unknown", why: "Gemini CLI printed no JSON result" });
    expect(readJudgeOutput("codex", crashed).text).toBe(crashed);
    expect(readJudgeOutput("opencode", "").usage)
      .toEqual({ kind: "unknown", why: "opencode printed no step_finish event with its tokens" });
  });
});
