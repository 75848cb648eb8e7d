import type { ExperimentRequest } from "./experiment.js";

/** verify.queue_per_agent when org.yaml does not say. */
export const DEFAULT_QUEUE_PER_AGENT = 2;

/** The slot an agent's runs take: its GPU, or one of the CPU slots. */
export function slotsFor(agent: { gpu: number | null }, cpuSlots: number): string[] {
  return agent.gpu === null ? Array.from({ length: cpuSlots }, (_, index) => `cpu${index}`) : [`gpu${agent.gpu}`];
}

export type ScheduleDecision = { kind: "start"; request: ExperimentRequest; slot: string } | { kind: "wait"; reason: string };

/**
 * Pick what to run next: the oldest request whose agent has no run going and whose slot is free.
 * One run per GPU at a time; an agent's runs go one by one so each is judged against its latest best.
 */
export function pickNext(input: {
  pending: ExperimentRequest[];
  runningAgents: Set<string>;
  busySlots: Set<string>;
  agents: Map<string, { gpu: number | null }>;
  cpuSlots: number;
}): ScheduleDecision {
  const rank = (request: ExperimentRequest) => (request.kind === "baseline" ? 0 : 1);
  const ordered = [...input.pending].sort((a, b) => rank(a) - rank(b) || a.submittedAt.localeCompare(b.submittedAt) || a.id.localeCompare(b.id));
  for (const request of ordered) {
    const agent = input.agents.get(request.agent);
    if (!agent || input.runningAgents.has(request.agent)) continue;
    const slot = slotsFor(agent, input.cpuSlots).find((candidate) => !input.busySlots.has(candidate));
    if (slot) return { kind: "start", request, slot };
  }
  return { kind: "wait", reason: ordered.length === 0 ? "nothing queued" : `${ordered.length} queued, every usable slot busy` };
}

/** Requests to add for commits made with plain `git commit` since the last verdict. */
export function detectNewCommits(input: {
  heads: Map<string, string | null>;
  ledgers: Map<string, { lastVerified: string | null }>;
  queuedAgents: Set<string>;
  now: Date;
  subjects: Map<string, string>;
}): ExperimentRequest[] {
  const requests: ExperimentRequest[] = [];
  for (const [agent, head] of input.heads) {
    const ledger = input.ledgers.get(agent);
    // No ledger yet means the baseline has not run: never race it with a candidate.
    if (!head || !ledger?.lastVerified || head === ledger.lastVerified || input.queuedAgents.has(agent)) continue;
    const stamp = input.now.toISOString();
    requests.push({ id: `${stamp.replace(/[:.]/g, "-")}-${agent}-${head.slice(0, 7)}`, agent, commit: head, description: input.subjects.get(agent) ?? "commit", kind: "candidate", submittedAt: stamp });
  }
  return requests;
}

export type QueueRoom = { kind: "room"; queued: number } | { kind: "full"; reason: string };

/** Whether an agent may queue one more experiment: counted from the queue on disk, so a daemon restart never resets it. */
export function decideQueueRoom(queued: ExperimentRequest[], agent: string, cap: number): QueueRoom {
  const mine = queued.filter((request) => request.agent === agent && request.kind === "candidate");
  if (mine.length < cap) return { kind: "room", queued: mine.length };
  const list = mine.map((request) => `${request.commit.slice(0, 7)} "${request.description}"`).join(", ");
  return { kind: "full", reason: `you already have ${mine.length} experiment${mine.length === 1 ? "" : "s"} queued (${list}) and verify.queue_per_agent is ${cap}: wait for a verdict, then submit (nothing was committed)` };
}
