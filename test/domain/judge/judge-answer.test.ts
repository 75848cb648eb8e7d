import { describe, expect, it } from "vitest";
import {
  decideCalibration,
  parseJudgeAnswer,
  planJudgeArgv,
  readJudgeRun,
  renderJudgePrompt,
} from "../../../src/domain/judge/index.js";

const WEIGHTS = { design: 0.5, craft: 0.3, function: 0.2 };
const answer = (value: unknown) => `Reading the files…\n${JSON.stringify(value)}\n`;

describe("the judge's answer, read strictly", () => {
  it("the weighted sum of the scores is the metric, the reason comes with it, text around the JSON ignored", () => {
    const json = JSON.stringify({ scores: { design: 0.8, craft: 0.5, function: 1 }, reason: "thin {craft}" });
    const text = `I looked. {"not": "this"}\n\`\`\`json\n${json}\n\`\`\`\ndone`;
    const parsed = parseJudgeAnswer(text, WEIGHTS);
    expect(parsed).toMatchObject({
      kind: "scored",
      scores: { design: 0.8, craft: 0.5, function: 1 },
      reason: "thin {craft}",
    });
    expect(parsed.kind === "scored" && parsed.score).toBeCloseTo(0.5 * 0.8 + 0.3 * 0.5 + 0.2 * 1, 12);
  });

  it("the last answer counts when the CLI printed an earlier one", () => {
    const text = answer({ scores: { design: 0, craft: 0, function: 0 }, reason: "draft" }) +
      answer({ scores: { design: 1, craft: 1, function: 1 }, reason: "final" });
    expect(parseJudgeAnswer(text, WEIGHTS)).toMatchObject({ kind: "scored", score: 1, reason: "final" });
  });

  it("every malformed answer is a judge-error saying what is wrong", () => {
    const NO_JSON = "judge-error: no JSON answer with \"scores\" and \"reason\" in the judge's output " +
      "(expected design, craft, function)";
    const cases: [string, string][] = [
      [
        "Sorry, I cannot help with that.",
        NO_JSON,
      ],
      [
        '{"scores": {"design": 0.5',
        NO_JSON,
      ],
      [
        answer({ scores: [0.5], reason: "r" }),
        `judge-error: "scores" is not a map of dimension to score (expected design, craft, function)`,
      ],
      [
        answer({ scores: {}, reason: "r" }),
        "judge-error: the answer scores no dimension (expected design, craft, function)",
      ],
      [
        answer({ scores: { design: 1, craft: 1, function: 1, beauty: 1 }, reason: "r" }),
        'judge-error: the answer scores unknown dimension "beauty" (expected design, craft, function)',
      ],
      [answer({ scores: { design: 1 }, reason: "r" }), "judge-error: the answer does not score craft, function"],
      [
        answer({ scores: { design: 1.2, craft: 1, function: 1 }, reason: "r" }),
        "judge-error: design scored 1.2, not a number from 0 to 1",
      ],
      [
        answer({ scores: { design: -0.1, craft: 1, function: 1 }, reason: "r" }),
        "judge-error: design scored -0.1, not a number from 0 to 1",
      ],
      [
        answer({ scores: { design: "0.5", craft: 1, function: 1 }, reason: "r" }),
        'judge-error: design scored "0.5", not a number from 0 to 1',
      ],
      [answer({ scores: { design: 1, craft: 1, function: 1 } }), 'judge-error: the answer gives no "reason"'],
      [
        answer({ scores: { design: 1, craft: 1, function: 1 }, reason: "  " }),
        'judge-error: the answer gives no "reason"',
      ],
    ];
    for (const [text, reason] of cases) {
      expect(parseJudgeAnswer(text, WEIGHTS), text).toEqual({ kind: "error", reason });
    }
  });
});

describe("how the judge's run ended", () => {
  const clean = { exitCode: 0, signal: null, timedOut: false };
  const whole = answer({ scores: { design: 1, craft: 1, function: 1 }, reason: "r" });
  it("a timeout, a failed exit, a start that failed or a machine fault is a judge-error, whatever it printed", () => {
    const cases: [Parameters<typeof readJudgeRun>[0], string][] = [
      [
        { ...clean, exitCode: null, signal: "SIGTERM", timedOut: true },
        "judge-error: the judge timed out after 2m; process group killed",
      ],
      [{ ...clean, exitCode: 1 }, "judge-error: the judge failed: exit code 1"],
      [{ ...clean, exitCode: null, signal: "SIGKILL" }, "judge-error: the judge failed: killed by SIGKILL"],
      [
        { ...clean, exitCode: null, spawnError: "spawn claude ENOENT" },
        "judge-error: the judge could not start: spawn claude ENOENT",
      ],
      [{ ...clean, fault: "GPU 0 fell off the bus" }, "judge-error: the judge run failed: GPU 0 fell off the bus"],
    ];
    for (const [run, reason] of cases) {
      expect(readJudgeRun(run, whole, WEIGHTS, 120_000)).toEqual({ kind: "error", reason });
    }
    expect(readJudgeRun(clean, whole, WEIGHTS, 120_000)).toMatchObject({ kind: "scored", score: 1 });
  });
});

describe("calibration before trust", () => {
  const rule = { k: 2, minDelta: 0 };
  it("good references beating bad ones by more than k·σ calibrate the judge, σ pooled over every reference", () => {
    const decided = decideCalibration([
      { path: "eval/good/landing.html", kind: "good", samples: [0.8, 0.82, 0.84] },
      { path: "eval/bad/spam.html", kind: "bad", samples: [0.2, 0.22, 0.24] },
    ], rule);
    expect(decided).toMatchObject({
      kind: "calibrated",
      margin: expect.closeTo(0.6, 9),
      sigma: expect.closeTo(0.02, 9),
    });
    expect(decided.kind === "calibrated" && decided.summary).toBe(
      "the judge separates your references: good ≥ 0.82, bad ≤ 0.22, a margin of 0.60 > 2σ = 0.04",
    );
  });

  it("references the judge cannot tell apart refuse, with each reference's mean ± spread", () => {
    expect(decideCalibration([
      { path: "eval/good/landing.html", kind: "good", samples: [0.53, 0.61, 0.69] },
      { path: "eval/bad/spam.html", kind: "bad", samples: [0.47, 0.58, 0.69] },
    ], rule)).toEqual({
      kind: "refused",
      message: "the rubric does not separate your references: good/landing.html 0.61 ± 0.08, " +
        "bad/spam.html 0.58 ± 0.11 — sharpen the rubric or change the references",
    });
  });

  it("a margin inside the noise refuses although every good mean is above every bad one; " +
    "one good below a bad refuses", () => {
    const noisy = decideCalibration([
      { path: "g.md", kind: "good", samples: [0.5, 0.7] },
      { path: "b.md", kind: "bad", samples: [0.4, 0.6] },
    ], rule);
    expect(noisy.kind).toBe("refused");
    const crossed = decideCalibration([
      { path: "g1.md", kind: "good", samples: [0.9, 0.9] },
      { path: "g2.md", kind: "good", samples: [0.3, 0.3] },
      { path: "b.md", kind: "bad", samples: [0.4, 0.4] },
    ], rule);
    expect(crossed.kind === "refused" && crossed.message).toBe(
      "the rubric does not separate your references: good/g1.md 0.90 ± 0.00, good/g2.md 0.30 ± 0.00, " +
        "bad/b.md 0.40 ± 0.00 — sharpen the rubric or change the references",
    );
  });
});

describe("the judge's prompt and argv", () => {
  it("holds the rubric, the weights, the references, the work and the flaw-finding instruction; " +
    "each CLI headless", () => {
    const prompt = renderJudgePrompt({
      rubric: { path: "eval/rubric.md", text: "## design\nclear" }, weights: { design: 1 },
      references: {
        good: [{ path: "eval/good/a.html", text: "<h1>good</h1>" }],
        bad: [{ path: "eval/bad/b.html", text: "BUY" }],
      },
      work: { kind: "checkout", commit: "abc1234", gates: ["types"] },
    });
    const parts = [
      "This work is flawed: find where.",
      "## design\nclear",
      "- design (weight 1)",
      "Good work (scores high): eval/good/a.html",
      "<h1>good</h1>",
      "Bad work (scores low): eval/bad/b.html",
      "at commit abc1234",
      "Its gates (types) passed",
      '{"scores":{"design":0.5}',
    ];
    for (const part of parts) {
      expect(prompt).toContain(part);
    }
    expect(planJudgeArgv("claude", "/bin/claude", "P")).toEqual(["/bin/claude", "-p", "--output-format", "json", "P"]);
    expect(planJudgeArgv("codex", "codex", "P")).toEqual([
      "codex", "exec", "--json", "--skip-git-repo-check", "--sandbox", "read-only", "P",
    ]);
    expect(planJudgeArgv("gemini", "gemini", "P")).toEqual([
      "gemini", "--skip-trust", "--output-format", "json", "--prompt", "P",
    ]);
    expect(planJudgeArgv("opencode", "opencode", "P")).toEqual(["opencode", "run", "--format", "json", "P"]);
  });
});
