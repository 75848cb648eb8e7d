// Stacking: a keep that improves its agent's best but not the org's is tried on top of the org best, as the org's own
// experiment.
import { requestId, type ExperimentRequest, type StackTarget } from "./request.js";
import { decideFrontier, type Frontier } from "./frontier.js";
import { checkPaths, type ChangedPath, type PathRules } from "./path-rules.js";
import type { Goal, Verdict } from "./verdict.js";

/** The agent of a stack's results row and of the org best it makes. */
export const STACK_AGENT = "org";

/** One stack tried, a line of state/stacks.jsonl: a kept commit is never stacked twice onto the same org best. */
export interface StackAttempt {
  kept: string;
  onto: string;
  /** The verdict of a judged combination, or why none was run. */
  outcome: Verdict["kind"] | "conflict" | "paths" | "empty";
  reason: string;
  /** The combination, when the change applied. */
  commit?: string;
  at: string;
}

/** Whether the kept commit is already in the org best, and whether it already builds on it. */
export interface Ancestry {
  bestHoldsKept: boolean;
  keptHoldsBest: boolean;
}

export type StackOffer = { kind: "offer"; after: string } | { kind: "skip"; reason: string };

/** After a verdict: a keep whose change is worth trying on the org best, or why not. */
export function decideStackOffer(input: {
  enabled: boolean;
  request: ExperimentRequest;
  verdict: Verdict;
  after: string | undefined;
  frontier: Frontier | undefined;
  goal: Goal;
  metricName: string;
}): StackOffer {
  const { request, verdict, frontier } = input;
  if (!input.enabled) return { kind: "skip", reason: "verify.stack is false" };
  if (request.kind !== "candidate" || verdict.kind !== "keep") return { kind: "skip", reason: "not a kept candidate" };
  if (!frontier) return { kind: "skip", reason: "the org has no best yet" };
  // A keep adopted from the org best (a follower moved onto it) is the org best: nothing to stack, nothing to log.
  if (frontier.commit === request.commit) return { kind: "skip", reason: "it is the org best" };
  // The keep advances the org best itself: nothing to stack it on.
  const keep = { commit: request.commit, metric: verdict.metric, agent: request.agent };
  const frontierDecision = decideFrontier(frontier, keep, input.goal, input.metricName);
  if (frontierDecision.kind === "advance") return { kind: "skip", reason: frontierDecision.reason };
  if (!input.after || input.after === request.commit) {
    return { kind: "skip", reason: "no change over the agent's previous best" };
  }
  return { kind: "offer", after: input.after };
}

export type StackDecision = { kind: "stack"; target: StackTarget } | { kind: "skip"; reason: string };

/**
 * Whether the kept commit's change goes onto this org best: not when the best holds it, it holds the best, or the
 * pair was tried.
 */
export function decideStackTarget(input: {
  kept: string;
  frontier: Frontier | undefined;
  bestRuns: number;
  tried: StackAttempt[];
  ancestry: Ancestry | undefined;
}): StackDecision {
  const { kept, frontier } = input;
  if (!frontier) return { kind: "skip", reason: "the org has no best yet" };
  const best = short(frontier.commit);
  if (frontier.commit === kept || input.ancestry?.bestHoldsKept) {
    return { kind: "skip", reason: `the org best ${best} already holds ${short(kept)}` };
  }
  if (input.ancestry?.keptHoldsBest) {
    return { kind: "skip", reason: `${short(kept)} already builds on the org best ${best}` };
  }
  const tried = input.tried.find((attempt) => attempt.kept === kept && attempt.onto === frontier.commit);
  if (tried) {
    const reason = `${describeStack(kept, frontier.commit)} was tried at ${tried.at} (${tried.outcome})`;
    return { kind: "skip", reason };
  }
  return { kind: "stack", target: { onto: frontier.commit, metric: frontier.metric, runs: input.bestRuns } };
}

/** The queued request for a stack: the agent's, so it runs in that agent's turn and slot. */
export function toStackRequest(input: {
  agent: string;
  kept: string;
  after: string;
  target: StackTarget;
  now: Date;
}): ExperimentRequest {
  const at = input.now.toISOString();
  return {
    id: requestId(input.now, input.agent, `stack-${short(input.kept)}`),
    agent: input.agent, commit: input.kept, after: input.after,
    description: describeStack(input.kept, input.target.onto), kind: "stack", submittedAt: at, stack: input.target,
  };
}

export type StackPaths = { kind: "judge" } | { kind: "skip"; outcome: "paths" | "empty"; reason: string };

/**
 * What the change adds to the org best must be something, and within the agent's role: protected paths and edits,
 * as for a candidate.
 */
export function checkStackPaths(changed: ChangedPath[], rules: PathRules): StackPaths {
  if (changed.length === 0) {
    return { kind: "skip", outcome: "empty", reason: "not stacked: the org best already holds the change" };
  }
  const check = checkPaths(changed, rules);
  if (check.ok) return { kind: "judge" };
  return { kind: "skip", outcome: "paths", reason: `not stacked: the change ${check.reason}` };
}

/** A conflict's log line: where the change would not apply. */
export function describeStackConflict(input: { kept: string; agent: string; onto: string; files: string[] }): string {
  const where = input.files.length > 0 ? ` in ${input.files.join(", ")}` : "";
  const change = `${input.agent}'s change ${short(input.kept)}`;
  return `not stacked: ${change} conflicts${where} with the org best ${short(input.onto)}`;
}

/** The results row's description: which kept commit went onto which org best. */
export function describeStack(kept: string, onto: string): string {
  return `stack ${short(kept)} onto ${short(onto)}`;
}

function short(commit: string): string {
  return commit.slice(0, 7);
}
