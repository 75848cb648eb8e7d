import * as z from "zod";
import { duration } from "./duration.js";
import { JudgeSchema } from "./judge-schema.js";
import { argv, name } from "./names.js";

/** verify.queue_per_agent when org.yaml does not say. */
export const DEFAULT_QUEUE_PER_AGENT = 2;

export const MetricSchema = z.strictObject({
  name: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: "an identifier: letters, digits and '_', not starting with a digit" })
    .describe("the metric's name, used as the results.tsv column")
    .meta({ examples: ["val_bpb"] }),
  pattern: z
    .string()
    .min(1)
    .describe("a regular expression, applied per line of the run log, whose first capture group is the number")
    .meta({ examples: ["^val_bpb:\\s*([0-9.]+)"] }),
  goal: z.enum(["minimize", "maximize"]).default("minimize").describe("whether lower or higher is better"),
});

const KeepRuleSchema = z.strictObject({
  k: z.number().min(0).default(2)
    .describe("an improvement must beat k·σ of the noise (σ from the baseline repeats, pooled across agents)"),
  min_delta: z.number().min(0).default(0)
    .describe("and at least this much; the whole rule when σ is 0 (a deterministic task)"),
  confirm: z.number().int().min(0).max(20).default(2)
    .describe("extra runs, with fresh seeds, for a candidate that beats the best but not the noise; "
      + "kept only if their mean clears the rule"),
});

const BudgetName = z.string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: "a budget name must be an identifier such as training_seconds" });

const BudgetSchema = z.strictObject({
  pattern: z.string().min(1)
    .describe("a regular expression whose first capture group is the value")
    .meta({ examples: ["^training_seconds:\\s*([0-9.]+)"] }),
  max: z.number().optional().describe("a run above this is discarded, however good its metric"),
});

const SimplicitySchema = z.strictObject({
  max_lines: z.number().int().min(0).describe("an improvement adding more lines than this ..."),
  min_improvement: z.number().min(0).describe("... must improve the metric by at least this much"),
});

const GateSchema = z
  .strictObject({
    name: name()
      .describe("the gate's name, shown in the verdict, results.tsv's gate column and org results")
      .meta({ examples: ["types"] }),
    command: argv
      .describe("argv run in the candidate's clean checkout before the metric; a non-zero exit fails the experiment")
      .meta({ examples: [["npx", "tsc", "--noEmit"]] }),
    timeout: duration.default("10m").meta({ examples: ["5m"] })
      .describe("a gate running longer than this is killed (its whole process group) and fails"),
  })
  .describe("a hard gate: a command that must pass before the metric counts");

/** The metric a rubric judge gives: the weighted sum of its scores, 0 to 1, higher is better. */
export const JUDGE_METRIC = { name: "judge_score", pattern: "^judge_score: ([0-9.]+)$", goal: "maximize" } as const;

// A judge's rubric and references are protected like a scorer: restored from the base before every run, a change to
// them rejected.
const withJudge = (value: unknown) => {
  const map = asRecord(value);
  const judge = asRecord(map?.judge);
  if (!map || !judge) return value;
  const references = asRecord(judge.references);
  const sides = ["good", "bad"].flatMap((side) => (Array.isArray(references?.[side]) ? references[side] : []));
  const listed = [judge.rubric, ...sides];
  const own = Array.isArray(map.protected) ? map.protected as unknown[] : map.protected === undefined ? [] : undefined;
  const paths = listed.filter((path): path is string => typeof path === "string" && path !== "");
  return {
    ...map,
    ...(own ? { protected: [...new Set([...own, ...paths])] } : {}),
  };
};

function asRecord(value: unknown): Record<string, unknown> | undefined {
  const map = value !== null && typeof value === "object" && !Array.isArray(value);
  return map ? value as Record<string, unknown> : undefined;
}

const VerifyObject = z
  .strictObject({
    command: argv.optional()
      .describe("argv run in a clean checkout of the candidate commit; absent when verify.judge is the metric")
      .meta({ examples: [["python", "train.py"]] }),
    judge: JudgeSchema.optional()
      .describe("a rubric judge as the metric: an agent CLI, headless in the sandbox, scores each dimension"),
    gates: z.array(GateSchema).optional()
      .describe("commands that must pass, in order, before the metric command runs; "
        + "the first that fails ends the run with verdict fail, naming it"),
    protected: z.array(z.string().min(1)).default([])
      .describe("paths restored from base before every run; a diff touching them is rejected"),
    // Required unless verify.judge is set (judge-rules.ts): the default is the judge's, so editors ask for neither.
    metric: MetricSchema.default({ ...JUDGE_METRIC }).describe("the metric to parse from the run log"),
    memory: z
      .strictObject({
        pattern: z.string().min(1)
          .describe("regular expression whose capture group is peak memory in MB")
          .meta({ examples: ["^peak_vram_mb:\\s*([0-9.]+)"] }),
      })
      .optional()
      .describe("optional peak memory, reported as memory_gb"),
    timeout: duration.default("10m").meta({ examples: ["10m"] })
      .describe("a run longer than this is killed (its whole process group) and recorded as crash"),
    parallel: z.number().int().min(1).max(64).default(2)
      .describe("runs at once in CPU mode (and under Slurm with gpus: pool, jobs at once); "
        + "with GPUs it is one run per GPU"),
    gpus: z.enum(["own", "pool"]).default("own")
      .describe("own: an agent's runs use the GPU it holds; pool: agents hold none and each run takes any free GPU "
        + "of the org, one run per GPU, agents served in turn"),
    queue_per_agent: z.number().int().min(1).max(100).default(DEFAULT_QUEUE_PER_AGENT)
      .describe("experiments one agent may have queued at once; past it `org submit` refuses until a verdict comes"),
    repeats: z.number().int().min(1).max(100).default(3)
      .describe("baseline runs, each with its own seed (ORG_SEED, or {seed} in the command); "
        + "their spread is the noise σ"),
    keep: KeepRuleSchema.default({ k: 2, min_delta: 0, confirm: 2 })
      .describe("when a better metric counts as an improvement rather than noise"),
    budgets: z.record(BudgetName, BudgetSchema).default({})
      .describe("extra metrics parsed from every run, each its own results.tsv column; a run over a max is discarded"),
    simplicity: SimplicitySchema.optional()
      .describe("reject small improvements that add many lines (autoresearch's simplicity criterion)"),
    ledger: z.boolean().default(true)
      .describe("a change already judged on the same code is answered from state/tried.jsonl without a run; "
        + "false: every submit runs (a metric so noisy that re-running a change is wanted)"),
    stack: z.boolean().default(true)
      .describe("a keep that improves its agent's best but not the org's is tried on top of the org best "
        + "(a results row by org); false: never"),
  })
  .describe("the immutable verifier: how every experiment is run and judged");

export const VerifySchema = z.preprocess(withJudge, VerifyObject);
