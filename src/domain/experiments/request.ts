// What the verifier is asked to judge, and what it remembers per agent between requests.
import * as z from "zod";

// The id alone needs no schema: a module that only names requests loads it without zod.
export { requestId } from "./request-id.js";

/** The org best a stack's change goes onto, what it measured, and over how many runs. */
export interface StackTarget {
  onto: string;
  metric: number;
  runs: number;
}

/** One experiment waiting for the verifier: an agent's commit, or its baseline (the base, unmodified). */
export interface ExperimentRequest {
  id: string;
  agent: string;
  commit: string;
  description: string;
  kind: "baseline" | "candidate" | "confirm" | "stack" | "ablate";
  submittedAt: string;
  /** For `org confirm`: how many runs. */
  runs?: number;
  /** `org submit --no-wait`: the verdict goes to the agent's inbox as a message, typed into its pane. */
  reply?: "message";
  /** The agent's queued candidate this commit was made on top of: its own change is after..commit. */
  after?: string;
  /** Set by the verifier when `after` was not kept as it is: the change on the agent's best, or why it won't apply. */
  rebased?: Rebased;
  /** A stack: the org best its change (after..commit) goes onto, and what that best measured. */
  stack?: StackTarget;
  /** `org ablate`: the kept commit this variant (it without some of its changes) is an ablation of. */
  ablation?: { of: string };
}

/** A candidate's change moved onto the agent's best: `from` (the commit submitted) became `commit`, or conflicted. */
export type Rebased =
  | { kind: "rebased"; from: string; onto: string; commit: string }
  | { kind: "conflict"; from: string; onto: string; reason: string };

const RebasedSchema = z.discriminatedUnion("kind", [
  z.looseObject({ kind: z.literal("rebased"), from: z.string(), onto: z.string(), commit: z.string() }),
  z.looseObject({ kind: z.literal("conflict"), from: z.string(), onto: z.string(), reason: z.string() }),
]);

// Loose: a field a newer org wrote survives a rewrite by this one.
const RequestSchema = z.looseObject({
  id: z.string(),
  agent: z.string(),
  commit: z.string(),
  description: z.string(),
  kind: z.enum(["baseline", "candidate", "confirm", "stack", "ablate"]),
  submittedAt: z.string(),
  runs: z.number().optional(),
  reply: z.literal("message").optional(),
  after: z.string().optional(),
  rebased: RebasedSchema.optional(),
  stack: z.looseObject({ onto: z.string(), metric: z.number(), runs: z.number() }).optional(),
  ablation: z.looseObject({ of: z.string() }).optional(),
});

/** A request file's JSON as a request; undefined when it is not one (cut short, hand-edited, another shape). */
export function parseRequest(value: unknown): ExperimentRequest | undefined {
  const parsed = RequestSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

export type { AgentLedger } from "./ledger-schema.js";
