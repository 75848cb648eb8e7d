import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { configProbe } from "../../../src/adapters/probes/config.js";
import { calibrateJudge } from "../../../src/adapters/verifier/judge-calibration.js";
import { loadConfig } from "../../../src/domain/config/index.js";
import { readJudgeUsage } from "../../../src/adapters/verifier/judge-usage-store.js";
import { addCounts, ZERO_COUNTS } from "../../../src/domain/usage/token-counts.js";
import { startModelServer, userTexts } from "../../helpers/model-server/index.js";
import type { Exchange, ModelServer, Script } from "../../helpers/model-server/index.js";
import { homeFiles, orgEnv, runtimeYaml, type Cli } from "../../helpers/real-org.js";
import { createRepo, removeDir } from "../../helpers/temp-repo.js";

const CALIBRATED = {
  kind: "calibrated",
  summary: "the judge separates your references: good ≥ 0.85, bad ≤ 0.15, a margin of 0.70 > 2σ = 0.00",
};

// Codex 0.169.0, Gemini CLI 0.61.0 and opencode 1.18.33 as the judge (Claude Code's whole path: judge.clients.test.ts):
// each run headless by org's calibration, in the sandbox, behind the scripted model server, its answer read strictly.
const RUBRIC = "# Rubric\n## design\nOne message.\n## craft\nNo broken markup.\n";
const score = (design: number, craft: number) => JSON.stringify({ scores: { design, craft }, reason: "scripted" });
const judge: Script = (request) => {
  const prompt = userTexts(request).join("\n");
  if (!prompt.includes("This work is flawed: find where.")) return { kind: "text", text: "not a judge's prompt" };
  return { kind: "text", text: /The work is eval\/good\//.test(prompt) ? score(0.9, 0.8) : score(0.1, 0.2) };
};

// The models each CLI named (Codex and opencode name none in their output: the config's, as their transcripts do).
const MODELS: Record<string, string[]> = {
  codex: ["gpt-scripted"], gemini: ["gemini-3.5-flash-lite", "gemini-3.1-pro-preview"], opencode: ["model"],
};
const sumUsage = (exchanges: Exchange[]) => exchanges.map((exchange) => exchange.usage!).reduce(addCounts, ZERO_COUNTS);

let server: ModelServer;
const saved = { ...process.env };

describe("the judge in each agent CLI's headless mode", () => {
  beforeAll(async () => {
    server = await startModelServer({ script: judge });
  });
  afterAll(async () => {
    process.env = saved;
    await server?.close();
  });

  test.each<Cli>(["codex", "gemini", "opencode"])("%s calibrates on the references", async (cli) => {
    const dir = createJudgedRepo(cli, runtimeYaml(cli, server.url));
    try {
      const home = join(dir, ".home");
      for (const [file, text] of Object.entries(homeFiles(server.url))) {
        mkdirSync(join(home, file, ".."), { recursive: true });
        writeFileSync(join(home, file), text);
      }
      // The judge's CLI takes its keys and the user's config from org up's environment, as the daemon's would.
      process.env = { ...saved, ...orgEnv(home) };
      const before = server.exchanges.length;
      const outcome = await calibrateJudge(await loadJudged(dir), () => undefined);
      expect(outcome).toEqual(CALIBRATED);
      const exchanges = server.exchanges.slice(before);
      const judged = (exchange: Exchange) => userTexts(exchange.request).join("\n").includes("This work is flawed");
      const asked = exchanges.filter(judged);
      expect(asked.length).toBeGreaterThanOrEqual(4);
      // Each run's tokens, read from the CLI's headless JSON, are the server's exactly: Gemini's router call counts
      // (its stats name it); opencode's title request is in none of its events.
      const billed = exchanges.filter((exchange) => cli !== "opencode" || exchange.request.tools.length > 0);
      const { runs } = await readJudgeUsage(join(dir, "state"));
      expect(runs.map((run) => [run.kind, run.agent, run.cli, run.unknown])).toEqual(
        Array.from({ length: 4 }, () => ["calibration", "judge", cli, undefined]),
      );
      const counted = runs.flatMap((run) => Object.values(run.byModel ?? {})).reduce(addCounts, ZERO_COUNTS);
      expect(counted).toEqual(sumUsage(billed));
      expect(new Set(runs.flatMap((run) => Object.keys(run.byModel ?? {})))).toEqual(new Set(MODELS[cli]));
    } finally {
      process.env = { ...saved };
      removeDir(dir);
    }
  }, 120_000);

  test("the judge cannot write the checkout, only its own config folder: " +
    "a judge that could answers nothing", async () => {
    // Claude's argv (-p <prompt>) reaches this script instead: it answers only when the sandbox held.
    const script = [
      "#!/bin/sh",
      'if touch judged-here 2>/dev/null; then echo "the checkout was writable"; exit 0; fi',
      'touch "$HOME/mine" || { echo "no home of its own"; exit 0; }',
      'for last; do :; done',
      'case "$last" in *"The work is eval/good/"*) echo \'{"scores":{"design":0.9,"craft":0.8},"reason":"g"}\' ;;',
      '  *) echo \'{"scores":{"design":0.1,"craft":0.2},"reason":"b"}\' ;; esac',
      "",
    ].join("\n");
    const dir = createJudgedRepo("claude", "{ preset: claude, program: JUDGE }");
    try {
      // Beside the repo, untracked: the org's folder is what the sandbox shows again, read-only.
      writeFileSync(join(dir, ".judge.sh"), script, { mode: 0o755 });
      const yaml = readFileSync(join(dir, "org.yaml"), "utf8").replace("JUDGE", join(dir, ".judge.sh"));
      writeFileSync(join(dir, "org.yaml"), yaml);
      const outcome = await calibrateJudge(await loadJudged(dir), () => undefined);
      expect(outcome).toEqual(CALIBRATED);
      // Its output is no Claude Code result: each run is recorded, its usage unknown rather than zero.
      const { runs } = await readJudgeUsage(join(dir, "state"));
      expect(runs.map((run) => run.unknown)).toEqual(Array(4).fill("Claude Code printed no result object"));
    } finally {
      removeDir(dir);
    }
  }, 60_000);
});

function createJudgedRepo(cli: string, runtime: string): string {
  return createRepo({
    "eval/rubric.md": RUBRIC, "eval/good/a.html": "<h1>One</h1>\n", "eval/bad/b.html": "<h1>BUY</h1>\n",
    "prompts/r.md": "# r\n",
    "org.yaml": [
      `name: j${cli}`, "repo: .", "base: main", "gpus: none", "runtimes:", `  ${cli}: ${runtime}`,
      `roles:\n  r: { prompt: prompts/r.md, runtime: ${cli} }`,
      `verify:\n  judge: { runtime: ${cli}, rubric: eval/rubric.md, dimensions: { design: 0.5, craft: 0.5 },`,
      "    references: { good: [eval/good/a.html], bad: [eval/bad/b.html] }, repeats: 2, timeout: 90s }", "",
    ].join("\n"),
  });
}

async function loadJudged(dir: string) {
  const text = readFileSync(join(dir, "org.yaml"), "utf8");
  const loaded = await loadConfig({ file: "org.yaml", dir, text }, configProbe);
  if (!loaded.ok) throw new Error(loaded.problems.join("\n"));
  return loaded.loaded;
}
