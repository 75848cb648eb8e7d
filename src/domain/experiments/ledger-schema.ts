// The verifier's ledger of one agent, read through this schema by its owner, adapters/store/agent-ledger.ts, which
// loads it
// only once a ledger exists.
import * as z from "zod";

// Loose, as a request is: a field a newer org wrote survives this one's rewrite.
const LedgerSchema = z.looseObject({
  best: z.looseObject({ commit: z.string(), metric: z.number(), runs: z.number().optional() }).nullable(),
  lastVerified: z.string().nullable(),
  baseline: z.looseObject({ samples: z.array(z.number()), mean: z.number(), sd: z.number() }).optional(),
  baselineCrash: z.string().optional(),
  baselineLog: z.string().optional(),
  runs: z.number().optional(),
  noise: z.array(z.array(z.number())).optional(),
});

/**
 * What the verifier remembers per agent between runs. best.runs: how many runs the best's metric is the mean of (the
 * keep rule weighs its noise too). lastVerified: the branch head after the last verdict was applied; a different head
 * is a new commit to verify. baseline: the base's metric over `repeats` seeds, the agent's share of the noise estimate.
 * baselineCrash: set when the base itself crashed, so no experiment runs on a broken base; baselineLog: that run's last
 * log, for `org status` and `org up --wait` to name. runs: runs so far, the next run's seed, so every run has a fresh
 * one. noise: recent confirmation runs, grouped per candidate, more spreads for the pooled σ.
 */
export type AgentLedger = z.infer<typeof LedgerSchema>;

/** A ledger file's JSON as a ledger, or what is wrong with it (the first problem, with its field). */
export function parseLedger(value: unknown): { ok: true; ledger: AgentLedger } | { ok: false; reason: string } {
  const parsed = LedgerSchema.safeParse(value);
  if (parsed.success) return { ok: true, ledger: parsed.data };
  const issue = parsed.error.issues[0]!;
  return { ok: false, reason: `${issue.path.join(".") || "the file"}: ${issue.message}` };
}
