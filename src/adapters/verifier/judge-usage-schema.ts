// The shape of state/verifier/judge-usage.json, read by its owner, judge-usage-store.ts.
import * as z from "zod";

const COUNTS = z.object({
  input: z.number().int().nonnegative(), output: z.number().int().nonnegative(),
  cacheRead: z.number().int().nonnegative(), cacheWrite: z.number().int().nonnegative(),
});
const RUN = z.object({
  at: z.string().min(1), kind: z.enum(["verdict", "calibration"]), agent: z.string().min(1), commit: z.string(),
  run: z.number().int().positive(), cli: z.string().min(1), byModel: z.record(z.string(), COUNTS).optional(),
  cliUsd: z.number().nonnegative().optional(), unknown: z.string().optional(),
});
export const JUDGE_USAGE_FILE = z.object({ runs: z.array(RUN) });
