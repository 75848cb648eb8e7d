import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { evaluateStop } from "../../../src/adapters/store/stop-watch-state.js";
import { appendJudgeRun, judgeUsagePath, readJudgeUsage } from "../../../src/adapters/verifier/judge-usage-store.js";
import type { OrgConfig } from "../../../src/domain/config/schema.js";
import { recordJudgeUsage, summarizeJudgeSpend, type JudgeRunRecord } from "../../../src/domain/judge/index.js";
import type { Pricing } from "../../../src/domain/usage/pricing.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";

const PRICING = { "claude-*": { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 } };
const COUNTS = { input: 1000, output: 40, cacheRead: 300, cacheWrite: 50 };
// 1000·3 + 40·15 + 300·0.3 + 50·3.75 = 3877.5 per million tokens.
const RUN_USD = 0.0038775;
const run = (kind: JudgeRunRecord["kind"], commit: string, number: number, model = "claude-opus-5-5") =>
  recordJudgeUsage({ at: "2030-01-01T00:00:00.000Z", kind, agent: kind === "verdict" ? "researcher-1" : "judge",
    commit, run: number, cli: "claude" }, { kind: "counted", byModel: { [model]: COUNTS }, cliUsd: 0.00511 });

let dir: string | undefined;
afterEach(() => {
  if (dir) removeDir(dir);
  dir = undefined;
});

describe("the judge's spend, the verifier's own", () => {
  it("sums every run's tokens and prices them with org.yaml's pricing; the CLI's own dollars are shown apart", () => {
    const runs = [
      run("calibration", "b", 1), run("calibration", "b", 2), run("verdict", "c1", 1), run("verdict", "c2", 1),
    ];
    const spend = summarizeJudgeSpend(runs, PRICING);
    expect(spend).toMatchObject({ input: 4000, output: 160, cacheRead: 1200, cacheWrite: 200, runs: 4,
      calibrationRuns: 2, verdicts: 2, unknownRuns: 0 });
    expect(spend.costUsd).toBeCloseTo(4 * RUN_USD, 12);
    expect(spend.perVerdictUsd).toBeCloseTo(RUN_USD, 12);
    expect(spend.calibrationUsd).toBeCloseTo(2 * RUN_USD, 12);
    expect(spend.cliUsd).toBeCloseTo(4 * 0.00511, 12);
  });

  it("a model with no price: tokens counted, dollars unknown, and why; a run with no usage is unknown", () => {
    const unpriced = summarizeJudgeSpend([run("verdict", "c1", 1, "gpt-x")], PRICING);
    expect(unpriced).toMatchObject({ input: 1000, costUsd: null, perVerdictUsd: null,
      unpriced: 'no price for model "gpt-x" under pricing in org.yaml' });
    const blind = recordJudgeUsage({ at: "t", kind: "verdict", agent: "r", commit: "c", run: 1, cli: "claude" },
      { kind: "unknown", why: "Claude Code printed no result object" });
    const spend = summarizeJudgeSpend([run("verdict", "c1", 1), blind], PRICING);
    expect(spend).toMatchObject({ runs: 2, unknownRuns: 1, input: 1000,
      unknown: "1 of 2 runs gave no usage: Claude Code printed no result object" });
  });

  it("is kept in state/verifier/judge-usage.json: runs at once all kept; a broken file is a floor", async () => {
    dir = makeTempDir();
    const state = join(dir, "state");
    await Promise.all([1, 2, 3, 4, 5].map((number) => appendJudgeRun(state, run("verdict", `c${number}`, 1))));
    expect((await readJudgeUsage(state)).runs.map((one) => one.commit).sort()).toEqual(["c1", "c2", "c3", "c4", "c5"]);
    writeFileSync(judgeUsagePath(state), '{"runs": [{"kind": "x"}]}');
    const broken = await readJudgeUsage(state);
    expect(broken).toEqual({ runs: [], problem: `${judgeUsagePath(state)} is not a judge usage record (runs.0.at: ` +
      `Invalid input: expected string, received undefined)` });
    await appendJudgeRun(state, run("verdict", "c6", 1));
    const kept = JSON.parse(readFileSync(judgeUsagePath(state), "utf8")) as { runs: JudgeRunRecord[] };
    // What the broken file held is lost: a run of its own says so, and the spend stays a floor.
    expect(kept.runs.map((one) => [one.commit, one.unknown])).toEqual([["c6", broken.problem], ["c6", undefined]]);
  });

  it("stop.max_cost counts the agents' dollars and the judge's: the judge's alone can reach it", async () => {
    dir = makeTempDir();
    const state = join(dir, "state");
    mkdirSync(state, { recursive: true });
    for (const number of [1, 2, 3]) await appendJudgeRun(state, run("verdict", `c${number}`, 1));
    const config = (maxCost: number, pricing: Pricing = PRICING) => ({
      stop: { max_cost: maxCost }, pricing,
      verify: { metric: { name: "judge_score", goal: "maximize" }, judge: { runtime: "claude" } },
    }) as unknown as OrgConfig;
    const record = { root: dir, baseCommit: "b".repeat(40), upAt: "2030-01-01T00:00:00.000Z", agents: [] };
    const now = new Date("2030-01-01T01:00:00Z");
    const met = await evaluateStop({ config: config(0.01), record, now });
    expect(met).toMatchObject({ kind: "stop", key: "max_cost", reason: "max_cost reached: $0.01 of $0.01 in tokens" });
    const below = await evaluateStop({ config: config(0.02), record, now });
    expect(below).toMatchObject({ kind: "running", distances: [{ key: "max_cost", text: "$0.01/$0.02" }] });
    // The judge's model has no price: its dollars are unknown, and the sum says it is a floor.
    const unpriced = await evaluateStop({ config: config(0.02, {}), record, now });
    expect(unpriced).toMatchObject({ kind: "running", distances: [{ key: "max_cost", text: "$0.00+/$0.02" }] });
  });
});
