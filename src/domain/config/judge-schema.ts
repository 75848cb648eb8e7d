import * as z from "zod";
import { duration } from "./duration.js";

const path = z.string().min(1);

export const JudgeSchema = z
  .strictObject({
    runtime: z.string().min(1)
      .describe("the agent CLI that judges: a preset (claude, codex, gemini, opencode) or a runtime under runtimes")
      .meta({ examples: ["claude"] }),
    rubric: path.describe("the rubric, relative to the repo: markdown with one heading per dimension (## design)")
      .meta({ examples: ["eval/rubric.md"] }),
    dimensions: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]*$/, { message: "a dimension name such as design" }),
      z.number().min(0).max(1))
      .describe("each dimension the rubric names, with its weight; the weights sum to 1")
      .meta({ examples: [{ design: 0.3, originality: 0.2, craft: 0.25, function: 0.25 }] }),
    references: z.strictObject({
      good: z.array(path).default([]).describe("work the rubric should score high, relative to the repo"),
      bad: z.array(path).default([]).describe("work the rubric should score low, relative to the repo"),
    }).describe("what calibrates the judge: at org up every good reference must beat every bad one beyond its noise")
      .meta({ examples: [{ good: ["eval/good/landing.html"], bad: ["eval/bad/spam.html"] }] }),
    repeats: z.number().int().min(2).max(20).default(3)
      .describe("how many times the judge scores each reference at calibration; the spread is its noise σ"),
    timeout: duration.default("10m").meta({ examples: ["5m"] })
      .describe("a judge running longer than this is killed (its whole process group): a judge-error verdict"),
  })
  .describe("a rubric judge, calibrated on references before it is trusted");

export type JudgeConfig = z.output<typeof JudgeSchema>;
