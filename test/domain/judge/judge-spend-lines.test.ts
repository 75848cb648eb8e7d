import { describe, expect, it } from "vitest";
import { summarizeJudgeSpend, type JudgeRunRecord } from "../../../src/domain/judge/index.js";
import { describeJudgeSpend, explainJudgeSpend } from "../../../src/ui/judge-spend.js";

const run = (kind: JudgeRunRecord["kind"], commit: string, model: string, unknown?: string): JudgeRunRecord => ({
  at: "2030-01-01T00:00:00.000Z", kind, agent: "researcher-1", commit, run: 1, cli: "codex",
  ...(unknown ? { unknown } : { byModel: { [model]: { input: 1000, output: 40, cacheRead: 300, cacheWrite: 0 } } }),
});
const PRICING = { "gpt-*": { input: 1.25, output: 10, cache_read: 0.125 } };

describe("the judge's spend as status, results and the report say it", () => {
  it("its tokens, dollars, runs and the cost of a verdict", () => {
    const spend = summarizeJudgeSpend([run("calibration", "b", "gpt-5"), run("verdict", "c", "gpt-5")], PRICING);
    expect(describeJudgeSpend(spend)).toBe(
      "the judge (verifier): 2.68k tokens, $0.0034 over 2 runs (1 calibrating), $0.0017 per verdict",
    );
    expect(explainJudgeSpend(spend, true)).toEqual([]);
  });

  it("a model with no price and a run with no usage are said, and what stop.max_cost then counts", () => {
    const blind = run("verdict", "d", "o3-judge", "Codex printed no turn.completed event");
    const runs = [run("verdict", "c", "o3-judge"), blind];
    const spend = summarizeJudgeSpend(runs, PRICING);
    expect(describeJudgeSpend(spend)).toBe("the judge (verifier): 1.34k tokens, unpriced+ over 2 runs");
    expect(explainJudgeSpend(spend, true)).toEqual([
      'the judge (verifier): unpriced: no price for model "o3-judge" under pricing in org.yaml ' +
        "— stop.max_cost counts none of the judge's dollars until its model has a price under pricing",
      "the judge (verifier): usage unknown: 1 of 2 runs gave no usage: Codex printed no turn.completed event " +
        "— stop.max_cost counts only the runs whose usage is known",
    ]);
    expect(explainJudgeSpend(spend, false)).toEqual([
      'the judge (verifier): unpriced: no price for model "o3-judge" under pricing in org.yaml',
      "the judge (verifier): usage unknown: 1 of 2 runs gave no usage: Codex printed no turn.completed event",
    ]);
  });
});
