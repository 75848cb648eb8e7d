import type { ExperimentRequest } from "./request.js";
import { requestId } from "./request-id.js";
import { compareCodeUnits } from "../code-unit-order.js";

/** The slot an agent's runs take: its GPU, or one of the CPU slots; in pool mode any slot of the pool. */
export function slotsFor(agent: { gpu: number | null }, cpuSlots: number, pool?: readonly string[]): string[] {
  if (pool) return [...pool];
  return agent.gpu === null ? listCpuSlots(cpuSlots) : [`gpu${agent.gpu}`];
}

/** The slots of a pool: one per GPU still in it, or the CPU slots when the org has no GPU. */
export function poolSlots(gpus: readonly number[], lost: ReadonlySet<number>, cpuSlots: number): string[] {
  return gpus.length === 0 ? listCpuSlots(cpuSlots) : gpus.filter((gpu) => !lost.has(gpu)).map((gpu) => `gpu${gpu}`);
}

/** The GPU a slot stands for; null for a CPU slot. */
export function gpuOfSlot(slot: string): number | null {
  const match = /^gpu(\d+)$/.exec(slot);
  return match ? Number(match[1]) : null;
}

/** How much of the pool an agent has had since the daemon started: runs started, and the turn of its latest start. */
export interface Served {
  runs: number;
  last: number;
}

export type ScheduleDecision =
  | { kind: "start"; request: ExperimentRequest; slot: string }
  | { kind: "wait"; reason: string };

/**
 * Pick what to run next. Each agent offers one request, its baseline first, else its oldest; an agent with a
 * run going offers none, so its runs go one by one and each is judged against its latest best. Baselines go
 * first; then, given `served` (pool mode), the agent with the fewest runs started, then the one served least
 * recently; then the oldest request. One run per slot: a GPU, or a CPU slot.
 */
export function pickNext(input: {
  pending: ExperimentRequest[];
  runningAgents: Set<string>;
  busySlots: Set<string>;
  agents: Map<string, { gpu: number | null }>;
  cpuSlots: number;
  /** Pool mode: every agent's runs share these slots. */
  pool?: readonly string[];
  served?: ReadonlyMap<string, Served>;
}): ScheduleDecision {
  const rank = (request: ExperimentRequest) => (request.kind === "baseline" ? 0 : 1);
  // ISO times and ids compare as code points: localeCompare's first call loads ICU's collation (10–30 ms a daemon).
  const byAge = (a: ExperimentRequest, b: ExperimentRequest) =>
    compareCodeUnits(a.submittedAt, b.submittedAt) || compareCodeUnits(a.id, b.id);
  const heads = new Map<string, ExperimentRequest>();
  for (const request of [...input.pending].sort((a, b) => rank(a) - rank(b) || byAge(a, b))) {
    const { agent } = request;
    if (!heads.has(agent) && input.agents.has(agent) && !input.runningAgents.has(agent)) heads.set(agent, request);
  }
  const turn = (agent: string) => input.served?.get(agent) ?? { runs: 0, last: -1 };
  const byTurn = (a: ExperimentRequest, b: ExperimentRequest) =>
    turn(a.agent).runs - turn(b.agent).runs || turn(a.agent).last - turn(b.agent).last;
  const ordered = [...heads.values()].sort((a, b) => rank(a) - rank(b) || byTurn(a, b) || byAge(a, b));
  for (const request of ordered) {
    const slots = slotsFor(input.agents.get(request.agent)!, input.cpuSlots, input.pool);
    const slot = slots.find((candidate) => !input.busySlots.has(candidate));
    if (slot) return { kind: "start", request, slot };
  }
  if (input.pending.length === 0) return { kind: "wait", reason: "nothing queued" };
  if (input.pool?.length === 0) {
    return { kind: "wait", reason: `${input.pending.length} queued, every GPU of the pool is gone` };
  }
  return { kind: "wait", reason: `${input.pending.length} queued, every usable slot busy` };
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
    requests.push({
      id: requestId(input.now, agent, head.slice(0, 7)), agent, commit: head,
      description: input.subjects.get(agent) ?? "commit", kind: "candidate", submittedAt: stamp,
    });
  }
  return requests;
}

export type QueueRoom = { kind: "room"; queued: number } | { kind: "full"; reason: string };

/** Whether an agent may queue one more experiment: counted from the queue on disk, so no daemon restart resets it. */
export function decideQueueRoom(queued: ExperimentRequest[], agent: string, cap: number): QueueRoom {
  const mine = queued.filter((request) => request.agent === agent && request.kind === "candidate");
  if (mine.length < cap) return { kind: "room", queued: mine.length };
  const list = mine.map((request) => `${request.commit.slice(0, 7)} "${request.description}"`).join(", ");
  const experiments = `${mine.length} experiment${mine.length === 1 ? "" : "s"}`;
  const reason = `you already have ${experiments} queued (${list}) and verify.queue_per_agent is ${cap}: `
    + "wait for a verdict, then submit (nothing was committed)";
  return { kind: "full", reason };
}

function listCpuSlots(count: number): string[] {
  return Array.from({ length: count }, (_, index) => `cpu${index}`);
}
