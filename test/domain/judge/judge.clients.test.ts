import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { JudgeSpend } from "../../../src/domain/judge/index.js";
import { totalTokens } from "../../../src/domain/usage/token-counts.js";
import { formatTokens, formatUsd } from "../../../src/ui/usage-format.js";
import { startModelServer, userTexts } from "../../helpers/model-server/index.js";
import type { ModelServer, Script, Usage } from "../../helpers/model-server/index.js";
import { runOrg, runOrgAsync } from "../../helpers/org-cli.js";
import { pollUntil } from "../../helpers/poll.js";
import { closeOwnRealOrg, orgEnv, runtimeYaml } from "../../helpers/real-org.js";
import { createRepo, git } from "../../helpers/temp-repo.js";
import { bin } from "../../helpers/test-org/index.js";

// The test is the agent (an idle pane); Claude Code 2.1.328 is the judge, run headless by the verifier in its sandbox,
// behind the scripted model server. The scripted judge scores what it is shown: a reference by its side, a candidate
// by the page.html of the commit named in its prompt.
const RUBRIC = "# What a landing page is judged on\n" +
  "## design\nOne message, one call to action.\n" +
  "## craft\nNo broken markup.\n";
const orgYaml = (name: string, url: string) => `name: ${name}
repo: .
base: main
gpus: none
runtimes:
  idle: { command: ["${bin("forever")}"], restart: never }
  claude: ${runtimeYaml("claude", url)}
roles:
  researcher: { prompt: prompts/researcher.md, runtime: idle, edits: [page.html] }
verify:
  repeats: 1
  keep: { k: 2, min_delta: 0, confirm: 0 }
  judge:
    runtime: claude
    rubric: eval/rubric.md
    dimensions: { design: 0.6, craft: 0.4 }
    references: { good: [eval/good/landing.html], bad: [eval/bad/spam.html] }
    repeats: 2
    timeout: 60s
pricing:
  "claude-*": { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 }
stop: { max_cost: 100 }
`;

let mode: "blind" | "sharp" = "blind";
const calls = new Map<string, number>();
const answer = (design: number, craft: number, reason: string) => JSON.stringify({ scores: { design, craft }, reason });

/** The judge's mind: a blind one scores every reference alike; a sharp one tells them apart, with a little noise. */
const judgeScript = (dir: () => string): Script => (request) => {
  const prompt = userTexts(request).join("\n");
  const seen = (calls.get(prompt) ?? 0) + 1;
  calls.set(prompt, seen);
  const wobble = (seen % 2) * 0.02;
  if (/The work is eval\/good\//.test(prompt)) {
    return { kind: "text", text: mode === "sharp" ? answer(0.8 + wobble, 0.9, "clear") : answer(0.6, 0.6, "fine") };
  }
  if (/The work is eval\/bad\//.test(prompt)) {
    return { kind: "text", text: mode === "sharp" ? answer(0.1 + wobble, 0.2, "shouts") : answer(0.6, 0.6, "fine") };
  }
  const commit = /at commit ([0-9a-f]{40})/.exec(prompt)?.[1];
  const page = commit ? git(dir(), ["show", `${commit}:page.html`]) : "";
  if (page.includes("garbled")) return { kind: "text", text: "I refuse to use JSON today." };
  if (page.includes("flawed")) {
    return { kind: "text", text: answer(0.2, 0.3, "the call to action is buried under three banners") };
  }
  if (page.includes("better")) {
    return { kind: "text", text: answer(0.9, 0.8, "one message; the footer link is still broken") };
  }
  return { kind: "text", text: answer(0.5, 0.5, "plain: nothing wrong, nothing to remember") };
};

let server: ModelServer;
let dir: string;
let name: string;
let env: Record<string, string>;
const worktree = () => join(dir, "worktrees", "researcher-1");
const org = (args: string[], cwd = dir) => runOrgAsync(args, { cwd, env, timeoutMs: 120_000 });

describe("verify.judge: a rubric judge calibrated on references, then the metric", () => {
  beforeAll(async () => {
    server = await startModelServer({ script: judgeScript(() => dir), side: judgeScript(() => dir) });
    name = `j${process.pid}x${Math.floor(Math.random() * 1e6)}`;
    dir = createRepo({
      "page.html": "<h1>plain</h1>\n", "prompts/researcher.md": "# researcher\n", "eval/rubric.md": RUBRIC,
      "eval/good/landing.html": "<h1>One thing</h1><a>Start</a>\n", "eval/bad/spam.html": "<h1>BUY BUY BUY</h1>\n",
      "org.yaml": orgYaml(name, server.url),
    });
    const home = join(dir, ".home");
    mkdirSync(home, { recursive: true });
    writeFileSync(join(dir, ".git/info/exclude"), "/.home/\n", { flag: "a" });
    env = orgEnv(home);
  }, 60_000);

  afterAll(() => closeOwnRealOrg({ dir, name, env, server }));

  test("a judge that cannot tell the references apart: org up refuses with each reference's scores, " +
    "nothing started", async () => {
    const up = await org(["up", "--no-attach"]);
    expect(up.code, up.stderr).toBe(1);
    expect(up.stderr.trim().split("\n").at(-1)).toBe(
      "the rubric does not separate your references: good/landing.html 0.60 ± 0.00, bad/spam.html 0.60 ± 0.00 " +
        "— sharpen the rubric or change the references",
    );
    expect(existsSync(join(dir, "state", "judge-calibration.json"))).toBe(false);
    expect(existsSync(join(dir, "worktrees", "researcher-1"))).toBe(false);
  }, 90_000);

  test("a judge that separates them calibrates: its spread is recorded for the keep rule, " +
    "and the baseline is judged", async () => {
    mode = "sharp";
    const up = await org(["up", "--no-attach"]);
    expect(up.code, up.stderr).toBe(0);
    expect(up.stderr).toContain(
      "the judge separates your references: good ≥ 0.85, bad ≤ 0.15, a margin of 0.70 > 2σ = 0.02",
    );
    const calibration = readFileSync(join(dir, "state", "judge-calibration.json"), "utf8");
    const record = JSON.parse(calibration) as { references: { samples: number[] }[] };
    expect(record.references.map((reference) => reference.samples.length)).toEqual([2, 2]);
    await pollUntil(() => existsSync(join(dir, "state/agents/researcher-1/ledger.json")), {
      what: "the judged baseline",
      timeoutMs: 60_000,
    });
    const base = git(dir, ["rev-parse", "--short=7", "main"]).trim();
    expect(lastRow()).toEqual([base, "0.500000", "keep", "baseline", ""]);
  }, 120_000);

  test("a flawed candidate is discarded with the judge's reason; a better one is kept; " +
    "a malformed answer is a judge-error", async () => {
    const flawed = await submit("<h1>flawed</h1>\n", "three banners");
    expect(flawed.lines[2]).toBe(
      "discard: judge_score 0.2400 not better than best 0.5000 (-0.2600) " +
        "— the judge: the call to action is buried under three banners",
    );
    const garbled = await submit("<h1>garbled</h1>\n", "garble it");
    expect(garbled.lines[2]).toBe(
      'judge-error: no JSON answer with "scores" and "reason" in the judge\'s output (expected design, craft)',
    );
    expect(garbled.lines.at(-1)).toBe("I refuse to use JSON today.");
    expect(lastRow()).toEqual([garbled.short, "0.000000", "fail", "garble it", "judge"]);
    const better = await submit("<h1>better</h1>\n", "one message");
    // σ is the judge's spread on its references (0.012): the baseline, one run, has none to give.
    expect(better.lines[2]).toBe(
      "keep: judge_score 0.8600 beats best 0.5000 by 0.3600 > 2σ·√(1/1+1/1) (0.0240) " +
        "— the judge: one message; the footer link is still broken",
    );
    expect(lastRow()).toEqual([better.short, "0.860000", "keep", "one message", ""]);
    const wide = { ...env, COLUMNS: "200" };
    const tried = runOrg(["tried"], { cwd: dir, env: wide }).stdout;
    expect(tried).toMatch(new RegExp(`${garbled.short}\\s+researcher-1\\s+fail \\(judge\\)`));
    const results = runOrg(["results"], { cwd: dir, env: wide }).stdout;
    expect(results).toContain(`gates failed: judge 1 (latest ${garbled.short} by researcher-1)`);
    expect(runOrg(["history"], { cwd: dir, env: wide }).stdout.split("\n")[1]).toMatch(/\sjudge×1\s/);
  }, 150_000);

  test("the judge's tokens and dollars are the verifier's: every calibration run and verdict, priced, in status, " +
    "results and the report, and counted by stop.max_cost", async () => {
    // Every request the server answered was a judge's: 8 calibrating (the blind org up's and the sharp one's), then
    // one per verdict (baseline, flawed, garbled, better). Claude Code's modelUsage gives each run's tokens.
    const total = server.totalUsage();
    const usd = (counts: Usage) =>
      (counts.input * 3 + counts.output * 15 + counts.cacheRead * 0.3 + counts.cacheWrite * 3.75) / 1e6;
    const calibrating = server.exchanges.slice(0, 8).map((exchange) => exchange.usage!);
    const wide = { ...env, COLUMNS: "200" };
    const status = JSON.parse(runOrg(["status", "--json"], { cwd: dir, env: wide }).stdout) as { judge: JudgeSpend };
    expect(server.exchanges).toHaveLength(12);
    expect(status.judge).toMatchObject({
      ...total, runs: 12, calibrationRuns: 8, verdicts: 4, unknownRuns: 0, costUsd: expect.closeTo(usd(total), 12),
      calibrationUsd: expect.closeTo(calibrating.reduce((sum, counts) => sum + usd(counts), 0), 12),
    });
    const perVerdict = status.judge.perVerdictUsd!;
    expect(perVerdict).toBeCloseTo((usd(total) - status.judge.calibrationUsd!) / 4, 12);
    const line = `the judge (verifier): ${formatTokens(totalTokens(total))} tokens, ${formatUsd(usd(total))} ` +
      `over 12 runs (8 calibrating), ${formatUsd(perVerdict)} per verdict`;
    expect(runOrg(["status"], { cwd: dir, env: wide }).stdout).toContain(line);
    expect(runOrg(["results"], { cwd: dir, env: wide }).stdout).toContain(line);
    // The idle agent spends nothing: the limit's distance is the judge's dollars.
    await pollUntil(() => readStopDistance() === `$${usd(total).toFixed(2)}/$100`, {
      what: "the stop distance with the judge's dollars", timeoutMs: 30_000,
    });
    const report = await org(["report"]);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toContain(`; ${line}`);
  }, 120_000);
});

async function submit(text: string, message: string): Promise<{ short: string; lines: string[] }> {
  writeFileSync(join(worktree(), "page.html"), text);
  const result = await org(["submit", "-m", message], worktree());
  expect(result.code, result.stderr).toBe(0);
  const lines = result.stdout.replace(/\n$/, "").split("\n");
  return { short: /^submitted ([0-9a-f]{7}) /.exec(lines[0]!)?.[1] ?? "", lines };
}

function readStopDistance(): string | undefined {
  const file = JSON.parse(readFileSync(join(dir, "state", "stop.json"), "utf8")) as {
    distances?: { key: string; text: string }[];
  };
  return file.distances?.find((distance) => distance.key === "max_cost")?.text;
}

/** The last results.tsv row: commit, metric, status, description and the gate column. */
function lastRow(): string[] {
  const lines = readFileSync(join(dir, "state", "results.tsv"), "utf8").trimEnd().split("\n");
  expect(lines[0]).toBe(
    "commit\tjudge_score\tmemory_gb\tstatus\tdescription\tagent\tgpu\tseconds\ttime\tprogram\tgate\t" +
      "lines_added\tlines_removed",
  );
  const fields = lines.at(-1)!.split("\t");
  return [fields[0]!, fields[1]!, fields[3]!, fields[4]!, fields[10]!];
}
