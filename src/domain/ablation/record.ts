// An ablation's record under state/ablation/: the plan `org ablate` made, each variant's measure the verifier wrote.
import * as z from "zod";

const HASH = z.string().regex(/^[0-9a-f]{40,64}$/, "must be a full commit hash");

const CHANGE = z.object({
  commit: HASH, from: HASH, agent: z.string().min(1), kind: z.enum(["keep", "stack"]), description: z.string(),
  metric: z.number(),
});

const VARIANT = z.object({
  /** None: the target itself, measured again beside its variants. */
  reverted: z.array(HASH),
  commit: HASH.optional(),
  entangled: z.object({ with: z.array(HASH).min(1), files: z.array(z.string()) }).optional(),
  skipped: z.string().optional(),
});

export const ABLATION_RECORD = z.object({
  commit: HASH,
  base: HASH,
  metric: z.string().min(1),
  goal: z.enum(["minimize", "maximize"]),
  best: z.object({ metric: z.number(), runs: z.number().int().positive() }),
  baseline: z.number().optional(),
  repeats: z.number().int().positive(),
  startedAt: z.string().min(1),
  changes: z.array(CHANGE).min(1),
  variants: z.array(VARIANT),
});

export type AblationRecord = z.infer<typeof ABLATION_RECORD>;

/** What the verifier measured for one variant commit: written once, so a variant is never counted twice. */
export const VARIANT_MEASURE = z.object({
  commit: HASH,
  n: z.number().int().nonnegative(),
  mean: z.number().optional(),
  sd: z.number().optional(),
  samples: z.array(z.number()).optional(),
  crashed: z.string().optional(),
  /** Where it came from: its runs, a row results.tsv already held, or the ledger's entry for the same change. */
  source: z.enum(["runs", "row", "ledger"]),
  /** The commit the ledger's entry measured. */
  from: z.string().optional(),
  at: z.string().min(1),
});

export type VariantResult = z.infer<typeof VARIANT_MEASURE>;

/** A record read back, or why it is not one: `file: what — fix`. */
export function parseAblationRecord(value: unknown, file: string)
  : { ok: true; record: AblationRecord } | { ok: false; problem: string } {
  const parsed = ABLATION_RECORD.safeParse(value);
  if (parsed.success) return { ok: true, record: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
  const what = `${file}: not an ablation record: ${where}${issue?.message ?? "unreadable"}`;
  return { ok: false, problem: `${what} — delete it and run \`org ablate\` again` };
}

/** A variant's measure read back; one that does not parse is none (the variant is measured again). */
export function parseVariantResult(value: unknown): VariantResult | undefined {
  const parsed = VARIANT_MEASURE.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** How many runs a kept row's metric is the mean of, from its description ("… (mean of 3 runs)"). */
export function readRowRuns(description: string): number {
  const match = /\(mean of (\d+) runs\)$/.exec(description);
  return match ? Number(match[1]) : 1;
}

/** The results row's description for a variant. */
export function describeVariant(target: string, reverted: readonly string[]): string {
  if (reverted.length === 0) return `ablate ${target.slice(0, 7)} itself`;
  return `ablate ${target.slice(0, 7)} without ${reverted.map((commit) => commit.slice(0, 7)).join("+")}`;
}
