/** One Slurm job as squeue reports it, typed by what org does with it. */
export type SlurmJob =
  | (JobBase & { kind: "pending"; reason: string })
  | (JobBase & { kind: "running"; node: string; gpus: number[] })
  | (JobBase & { kind: "suspended"; node: string })
  | (JobBase & { kind: "ending"; state: string })
  | (JobBase & { kind: "ended"; state: string; reason: string });

export interface JobBase {
  id: string;
  name: string;
  comment: string;
}

export type LiveJob = Extract<SlurmJob, { kind: "pending" | "running" | "suspended" }>;
export type EndedJob = Extract<SlurmJob, { kind: "ended" }>;

// Slurm's states, grouped; anything unknown is treated as pending so org neither duplicates nor drops it.
const ENDED = new Set([
  "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "PREEMPTED", "NODE_FAIL", "BOOT_FAIL", "DEADLINE", "OUT_OF_MEMORY",
  "SPECIAL_EXIT", "REVOKED",
]);
const ENDING = new Set(["COMPLETING", "STAGE_OUT", "SIGNALING"]);
const SUSPENDED = new Set(["SUSPENDED", "STOPPED"]);

/** The typed job for one squeue row's state, reason and node list. */
export function classifyJob(base: JobBase, state: string, reason: string, node: string): SlurmJob {
  if (state === "RUNNING") return { ...base, kind: "running", node, gpus: [] };
  if (ENDED.has(state)) return { ...base, kind: "ended", state, reason };
  if (ENDING.has(state)) return { ...base, kind: "ending", state };
  if (SUSPENDED.has(state)) return { ...base, kind: "suspended", node };
  // PENDING, CONFIGURING, REQUEUED, REQUEUE_HOLD, RESIZING: the job holds no usable allocation yet.
  return {
    ...base,
    kind: "pending",
    reason: state === "PENDING" ? reason : `${state.toLowerCase()}${reason && reason !== "None" ? `, ${reason}` : ""}`,
  };
}

/**
 * What log.md says when an agent's job runs on another node than it last did (its node went down, it was
 * requeued or resubmitted): "researcher-3 moved from node2 to node3"; undefined when it did not move.
 */
export function describeMove(
  agent: string, previous: SlurmJob | undefined, job: SlurmJob,
): { title: string; body: string } | undefined {
  if (previous?.kind !== "running" || job.kind !== "running" || previous.node === job.node) return undefined;
  const same = previous.id === job.id ? `job ${job.id} (requeued)` : `job ${previous.id} → job ${job.id}`;
  return { title: `${agent} moved from ${previous.node} to ${job.node}`, body: `${same}, now ${describeJob(job)}` };
}

export function isLive(job: SlurmJob): job is LiveJob {
  return job.kind === "pending" || job.kind === "running" || job.kind === "suspended";
}

/** What a pane, `org status` and `org watch` show for a job: "pending (Resources)", "running on node1 GPU 2". */
export function describeJob(job: SlurmJob | undefined): string {
  if (!job) return "no job";
  switch (job.kind) {
    // Right after sbatch the scheduler has not looked yet: the reason is None for a moment.
    case "pending": return job.reason && job.reason !== "None" ? `pending (${job.reason})` : "pending";
    case "running": return `running on ${job.node}${job.gpus.length > 0 ? ` GPU ${job.gpus.join(",")}` : ""}`;
    case "suspended": return `suspended on ${job.node}`;
    case "ending": return `ending (${job.state.toLowerCase()})`;
    case "ended": return `ended ${job.state}${job.reason && job.reason !== "None" ? ` (${job.reason})` : ""}`;
  }
}
