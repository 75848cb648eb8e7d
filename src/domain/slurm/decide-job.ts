import { describeJob, isLive, type EndedJob, type LiveJob, type SlurmJob } from "./job.js";
import { ownerOf } from "./naming.js";

export type JobDecision =
  | { kind: "submit"; reason: string }
  | { kind: "resubmit"; after: EndedJob; reason: string }
  | { kind: "adopt"; job: LiveJob; cancel: string[]; reason: string }
  | { kind: "wait"; reason: string };

/**
 * What to do for one agent given every job of it squeue still knows: adopt a live job rather than submit
 * a duplicate (after a crash of ours), resubmit after a preempt, cancel or time limit, submit when none.
 */
export function decideAgentJob(agentJobs: readonly SlurmJob[]): JobDecision {
  const live = agentJobs.filter(isLive).sort(byRunningThenOldest);
  if (live.length > 0) {
    const [job, ...duplicates] = live as [LiveJob, ...LiveJob[]];
    const cancel = duplicates.map((duplicate) => duplicate.id);
    const extra = cancel.length > 0
      ? `; cancelling duplicate job${cancel.length > 1 ? "s" : ""} ${cancel.join(", ")}`
      : "";
    return { kind: "adopt", job, cancel, reason: `job ${job.id} is ${describeJob(job)}${extra}` };
  }
  // A job still releasing its allocation would make a new one wait behind it, or run next to its last processes.
  const ending = agentJobs.find((job) => job.kind === "ending");
  if (ending) return { kind: "wait", reason: `job ${ending.id} is ${describeJob(ending)}` };
  const ended = agentJobs.filter((job): job is EndedJob => job.kind === "ended").sort((a, b) => compareIds(b.id, a.id));
  const last = ended[0];
  if (last) return { kind: "resubmit", after: last, reason: `job ${last.id} ${describeJob(last)}` };
  return { kind: "submit", reason: "no job of this agent is known to Slurm" };
}

/**
 * Whether a pending job is held by Slurm's requeue delay (about 2 min of BeginTime after its node went down or it
 * was requeued): the same job ran before. org asks for no begin time, so the hold only delays the agent's return.
 */
export function isRequeueHold(previous: SlurmJob | undefined, job: SlurmJob): boolean {
  if (job.kind !== "pending" || job.reason !== "BeginTime") return false;
  return previous?.kind === "running" && previous.id === job.id;
}

/** The jobs of `org`'s agents, by agent; other orgs' and other people's jobs are left out. */
export function jobsByAgent(jobs: readonly SlurmJob[], org: string): Map<string, SlurmJob[]> {
  const byAgent = new Map<string, SlurmJob[]>();
  for (const job of jobs) {
    const agent = ownerOf(job.comment, org);
    if (agent !== undefined) byAgent.set(agent, [...(byAgent.get(agent) ?? []), job]);
  }
  return byAgent;
}

/** The ids `org down` cancels: exactly the live (or ending) jobs whose comment marks them as this org's. */
export function selectJobsToCancel(jobs: readonly SlurmJob[], org: string): string[] {
  return jobs.filter((job) => job.kind !== "ended" && ownerOf(job.comment, org) !== undefined).map((job) => job.id);
}

function byRunningThenOldest(a: LiveJob, b: LiveJob): number {
  const rank = (job: LiveJob) => (job.kind === "running" ? 0 : job.kind === "suspended" ? 1 : 2);
  return rank(a) - rank(b) || compareIds(a.id, b.id);
}

function compareIds(a: string, b: string): number {
  return Number.parseInt(a, 10) - Number.parseInt(b, 10);
}
