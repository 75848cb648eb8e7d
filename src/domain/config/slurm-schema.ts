import * as z from "zod";

export const SlurmSchema = z
  .strictObject({
    partition: z.string().min(1).optional()
      .describe("the partition (sbatch --partition); unset: the cluster's default partition")
      .meta({ examples: ["gpu"] }),
    account: z.string().min(1).optional()
      .describe("the account jobs are charged to (sbatch --account); unset: your default account")
      .meta({ examples: ["lab-ml"] }),
    time_limit: z.string().min(1).default("UNLIMITED")
      .describe("each agent job's time limit in Slurm's format (minutes, H:MM:SS, D-HH:MM:SS or UNLIMITED); "
        + "a job that hits it is resubmitted")
      .meta({ examples: ["1-00:00:00"] }),
    role_time_limits: z.record(z.string(), z.string().min(1)).optional()
      .describe("a time limit per role, over time_limit for its agents' jobs; a job that hits it is resubmitted, "
        + "the agent resuming its conversation")
      .meta({ examples: [{ researcher: "4:00:00", chief: "UNLIMITED" }] }),
    sbatch_args: z.array(z.string().min(1)).default([])
      .describe("extra sbatch arguments for every agent job, e.g. memory or constraints; org sets the job name, "
        + "comment, GPUs, partition, account and time itself")
      .meta({ examples: [["--mem=32G", "--constraint=a100"]] }),
    cpu_roles: z.enum(["local", "job"]).default("local")
      .describe("where roles without a GPU run: local (a pane on this host, no job) or job (a CPU-only Slurm job)"),
  })
  .describe("how agents run as Slurm jobs when backend is slurm; every key has a default");
