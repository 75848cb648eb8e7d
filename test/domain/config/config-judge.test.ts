import { describe, expect, it } from "vitest";
import { DIR, VALID, fakeProbe, load, problemsOf } from "../../fixtures/configs/fake-probe.js";

const RUBRIC = "# Rubric\n## Design\nclear hierarchy\n## Craft\nno broken links\n";
const FILES = [
  DIR,
  `${DIR}/prompts/researcher.md`,
  `${DIR}/eval/rubric.md`,
  `${DIR}/eval/good/landing.html`,
  `${DIR}/eval/bad/spam.html`,
];
const probe = (files = FILES) => ({
  ...fakeProbe({ files }),
  readText: async (path: string) => (path === `${DIR}/eval/rubric.md` ? RUBRIC : undefined),
});
const judged = (judge: string, extra = "") => `${VALID}verify:\n${extra}  judge:\n${judge}`;
const JUDGE = [
  "    runtime: claude",
  "    rubric: eval/rubric.md",
  "    dimensions: {design: 0.6, craft: 0.4}",
  "    references: {good: [eval/good/landing.html], bad: [eval/bad/spam.html]}",
  "",
].join("\n");

describe("config: verify.judge", () => {
  it("loads a judge: its metric is judge_score (higher is better), its rubric and references protected, " +
    "claude's runtime made", async () => {
    const result = await load(judged(JUDGE, "  protected: [bench.mjs]\n"), probe());
    expect(result.ok).toBe(true);
    const config = result.ok ? result.loaded.config : undefined;
    expect(config?.verify?.judge).toEqual({
      runtime: "claude", rubric: "eval/rubric.md", dimensions: { design: 0.6, craft: 0.4 },
      references: { good: ["eval/good/landing.html"], bad: ["eval/bad/spam.html"] }, repeats: 3, timeout: "10m",
    });
    expect(config?.verify?.metric).toEqual({
      name: "judge_score",
      pattern: "^judge_score: ([0-9.]+)$",
      goal: "maximize",
    });
    expect(config?.verify?.protected).toEqual([
      "bench.mjs",
      "eval/rubric.md",
      "eval/good/landing.html",
      "eval/bad/spam.html",
    ]);
    expect(config?.verify?.command).toBeUndefined();
    expect(config?.runtimes.claude?.preset).toBe("claude");
  });

  it("refuses weights not summing to 1, a dimension the rubric does not name, no bad reference " +
    "and an unknown runtime, all at once", async () => {
    expect(await problemsOf(judged([
      "    runtime: claud",
      "    rubric: eval/rubric.md",
      "    dimensions: {design: 0.6, craft: 0.3, beauty: 0.2}",
      "    references: {good: [eval/good/landing.html], bad: []}",
      "",
    ].join("\n")), probe())).toEqual([
      'org.yaml:10:14: verify.judge.runtime names "claud", which is neither a preset nor defined under runtimes ' +
        '— name a preset: claude, codex, gemini or opencode',
      "org.yaml:12:17: verify.judge.dimensions' weights sum to 1.1, not 1 — change the weights so they add up to 1",
      'org.yaml:12:43: verify.judge.dimensions.beauty is not named by a heading of the rubric eval/rubric.md ' +
        '— add a "## beauty" section to the rubric saying what it asks, or remove the dimension',
      "org.yaml:13:55: verify.judge.references has no bad reference; calibration needs at least one good and one bad " +
        "— add bad: [eval/bad/spam.html]",
    ]);
  });

  it("refuses a missing rubric and reference, no good side at all, a runtime without a headless mode, " +
    "and a command beside the judge", async () => {
    const text = `${VALID}verify:\n  command: [python, train.py]\n  judge:\n${[
      "    runtime: mybot",
      "    rubric: eval/rubrik.md",
      "    dimensions: {design: 1}",
      "    references: {bad: [eval/bad/gone.html]}",
      "",
    ].join("\n")}`;
    expect(await problemsOf(text, probe())).toEqual([
      "org.yaml:9:3: verify.command and verify.judge both give the metric " +
        "— keep one: a build step before the judge goes in verify.gates",
      'org.yaml:11:14: verify.judge.runtime "mybot" is no agent CLI with a headless mode (runtimes.mybot has no ' +
        'preset claude, codex, gemini or opencode) — set runtimes.mybot.preset, or name a preset: claude, codex, ' +
        'gemini or opencode',
      'org.yaml:12:13: verify.judge.rubric file "eval/rubrik.md" does not exist in the repo ' +
        '— create it and commit it, or give its path relative to the repo',
      "org.yaml:14:17: verify.judge.references has no good reference; calibration needs at least one good and one " +
        "bad — add good: [eval/good/landing.html]",
      'org.yaml:14:24: verify.judge.references.bad[0] file "eval/bad/gone.html" does not exist in the repo ' +
        '— put there a page the rubric should score low and commit it, or give its path relative to the repo',
    ]);
  });

  it("a verify section with neither command nor judge names both; without a judge the metric is required", async () => {
    expect(await problemsOf(`${VALID}verify:\n  command: [python, train.py]\n`, probe())).toEqual([
      'org.yaml:9:3: verify is missing required key "metric" — add metric: <the metric to parse from the run log>',
    ]);
    const noCommand = `${VALID}verify:\n  metric: {name: score, pattern: '^score: ([0-9.]+)'}\n`;
    expect(await problemsOf(noCommand, probe())).toEqual([
      'org.yaml:9:3: verify is missing required key "command" ' +
        '— add command: [python, train.py], or judge: for a rubric judge (docs/judge.md)',
    ]);
  });

  it("a cost limit with no price says it counts the judge's dollars too", async () => {
    expect(await problemsOf(`${judged(JUDGE)}stop:\n  max_cost: 50\n`, probe())).toEqual([
      "org.yaml:15:13: stop.max_cost counts dollars (the agents' and the judge's), but org.yaml prices no model " +
        '— add a pricing section, e.g. pricing: {"claude-sonnet-*": {input: 3, output: 15}}, or remove stop.max_cost',
    ]);
  });
});
