import * as z from "zod";
import type { Goal } from "./verdict.js";

/**
 * The org's best commit so far, across agents: what `org/<name>/best` points at, as journaled and in frontier.json.
 * runs: how many runs the metric is the mean of, when the keep that set it said so (a stack does); left out of the
 * schema, zod would drop it and the journal's seal would break. half "b": program B's own frontier in an A/B run.
 */
export const FrontierSchema = z.object({
  commit: z.string(), metric: z.number(), agent: z.string(), at: z.string(),
  runs: z.number().optional(), half: z.literal("b").optional(),
});

export type Frontier = z.infer<typeof FrontierSchema>;

export type FrontierDecision = { kind: "advance"; reason: string } | { kind: "hold"; reason: string };

/** A kept commit advances the frontier only when it beats the org's best, not just its agent's. */
export function decideFrontier(
  current: Frontier | undefined, candidate: { commit: string; metric: number; agent: string }, goal: Goal,
  metricName: string,
): FrontierDecision {
  if (!current) return {
    kind: "advance", reason: `first frontier: ${metricName} ${candidate.metric} by ${candidate.agent}`,
  };
  const better = goal === "minimize" ? candidate.metric < current.metric : candidate.metric > current.metric;
  return better
    ? {
      kind: "advance",
      reason: `${metricName} ${candidate.metric} by ${candidate.agent} beats the org's best ${current.metric} (`
        + `${current.agent})`,
    }
    : {
      kind: "hold",
      reason: `${metricName} ${candidate.metric} does not beat the org's best ${current.metric} (${current.agent})`,
    };
}

/** Whether two records name the same frontier, field by field (the journal's key order is not the file's). */
export function isSameFrontier(a: Frontier | undefined, b: Frontier | undefined): boolean {
  if (!a || !b) return a === b;
  return a.commit === b.commit && a.metric === b.metric && a.agent === b.agent && a.at === b.at
    && a.runs === b.runs && a.half === b.half;
}
