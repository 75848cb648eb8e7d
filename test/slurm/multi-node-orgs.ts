// The orgs of the multi-node suite (multi-node.e2e.test.ts) on its 4-node cluster, and how it ends a job at its
// time limit without waiting the limit out.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { processRunner } from "../../src/adapters/process.js";
import { pollUntil } from "../helpers/poll.js";
import { bin } from "../helpers/test-org/index.js";

// 16 researchers, one GPU each, on a cluster of 4 nodes × 4 GPUs of this suite's own: every GPU of it taken.
const AGENT = 'echo "at node=$SLURMD_NODENAME gpu=$CUDA_VISIBLE_DEVICES job=$SLURM_JOB_ID"; exec sleep 3600';
export const heldYaml = (count: number) => (name: string) => `name: ${name}
gpus: auto
backend: slurm
slurm: { time_limit: "10:00" }
runtimes:
  printer: { command: [sh, -c, '${AGENT}'], restart: always }
roles:
  researcher: { prompt: prompts/researcher.md, runtime: printer, count: ${count}, gpu: true }
supervisor: { backoff: 200ms, max_backoff: 1s, max_restarts: 5, healthy_after: 2s }
`;

// A researcher on node4 alone (the node-down tests take other nodes), holding no GPU (cpu_roles: job). Slurm's
// limits are whole minutes and it checks them every 30 s, so waiting out a limit takes 60-90 s: once the agent has
// started in its first job, the suite moves that job's end to now (scontrol), and slurmctld ends it TIMEOUT itself at
// its next check, while the tests before this one run. The next job's limit (10 minutes) outlasts the file. Should
// the pane's step end before slurmctld's check, the supervisor restarts it slowly enough to last until then.
export const TIMED_NODE = "node4";
export const timedYaml = (name: string) => `name: ${name}
gpus: none
backend: slurm
slurm: { partition: ${TIMED_NODE}, cpu_roles: job, role_time_limits: { researcher: "10" } }
runtimes:
  resumer: { preset: claude, program: "${bin("slurm-resumer")}", restart: always }
roles:
  researcher: { prompt: prompts/researcher.md, runtime: resumer }
supervisor: { backoff: 1s, max_backoff: 4s, max_restarts: 30, healthy_after: 2s }
`;

export interface StatusJson {
  agents: {
    name: string;
    gpu: number | null;
    state: string;
    reason: string;
    job?: { id: string; node: string | null };
  }[];
}

export interface TimedEnd {
  /** The job whose end the suite moved to now. */
  job: string;
  sessionId: string;
  /** The agent's own record of its starts (test/fixtures/bin/slurm-resumer). */
  starts: () => string;
}

/** Once researcher-1 has started its conversation in its first job, that job's end moved to now. */
export async function endFirstJob(dir: string): Promise<TimedEnd> {
  const launch = readFileSync(join(dir, "state", "agents", "researcher-1", "launch.json"), "utf8");
  const { home, sessionId } = (JSON.parse(launch) as { runtime: { home: string; sessionId: string } }).runtime;
  const startsLog = join(home, "starts.log");
  const starts = () => (existsSync(startsLog) ? readFileSync(startsLog, "utf8") : "");
  const [, job] = await pollUntil(() => new RegExp(`^fresh ${sessionId} in job (\\d+)\n`).exec(starts()), {
    timeoutMs: 30_000,
    what: "researcher-1 started in its job",
    explain: starts,
  });
  const ended = await processRunner.run(["scontrol", "update", `JobId=${job}`, "EndTime=now"], { timeoutMs: 10_000 });
  if (ended.exitCode !== 0) throw new Error(`scontrol update JobId=${job} EndTime=now: ${ended.stderr}`);
  return { job: job!, sessionId, starts };
}
