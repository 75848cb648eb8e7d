import type { Goal } from "./verdict.js";

/** The org's best commit so far, across agents: what `org/<name>/best` points at. */
export interface Frontier {
  commit: string;
  metric: number;
  agent: string;
  at: string;
  /** How many runs the metric is the mean of, when the keep that set it said so (a stack does). */
  runs?: number;
  /** "b": program B's own frontier during an A/B run. */
  half?: "b";
}

export type FrontierDecision = { kind: "advance"; reason: string } | { kind: "hold"; reason: string };

/** A kept commit advances the frontier only when it beats the org's best, not just its agent's. */
export function decideFrontier(current: Frontier | undefined, candidate: { commit: string; metric: number; agent: string }, goal: Goal, metricName: string): FrontierDecision {
  if (!current) return { kind: "advance", reason: `first frontier: ${metricName} ${candidate.metric} by ${candidate.agent}` };
  const better = goal === "minimize" ? candidate.metric < current.metric : candidate.metric > current.metric;
  return better
    ? { kind: "advance", reason: `${metricName} ${candidate.metric} by ${candidate.agent} beats the org's best ${current.metric} (${current.agent})` }
    : { kind: "hold", reason: `${metricName} ${candidate.metric} does not beat the org's best ${current.metric} (${current.agent})` };
}
