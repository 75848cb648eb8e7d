import * as z from "zod";
import { duration } from "./duration.js";

// A deadline is a duration from `org up` or an ISO time; a past ISO time is refused at `org up` (stop-rules.ts).
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;
const DEADLINE = "a duration from org up such as 48h, or an ISO time such as 2030-01-31T18:00:00Z";
const positive = (what: string, example: number) =>
  z.number().positive().optional().describe(what).meta({ examples: [example] });

export const StopSchema = z
  .strictObject({
    target: z.number().optional()
      .describe("stop once the org's best metric reaches this, in verify.metric.goal's direction")
      .meta({ examples: [0.95] }),
    max_experiments: z.number().int().positive().optional()
      .describe("stop after this many experiments run (results.tsv rows; baselines and the ledger's answers, "
        + "which run nothing, not counted)")
      .meta({ examples: [500] }),
    max_gpu_hours: positive(
      "stop after this many hours of verify runs (the seconds column of results.tsv, summed)",
      100,
    ),
    max_cost: positive("stop once the agents' and the judge's tokens cost this many dollars (priced by pricing:)", 200),
    deadline: z.union([duration, z.string().regex(ISO_TIME, { message: DEADLINE })], { error: DEADLINE }).optional()
      .describe(DEADLINE).meta({ examples: ["48h"] }),
    stall: z.number().int().positive().optional()
      .describe("stop after this many experiments in a row without an improvement of the org's best")
      .meta({ examples: [100] }),
    grace: duration.default("2m")
      .describe("how long agents get, once told, to write their progress file before their programs are stopped"),
    ablate: z.boolean().optional()
      .describe("once the agents' experiments drain, `org ablate` the org best once, before the report"),
  })
  .describe("when the org stops by itself: the first condition met stops every agent, "
    + "writes the report and state/stop.json; every key optional");
