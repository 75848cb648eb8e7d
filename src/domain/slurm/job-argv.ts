import type { SlurmConfig } from "../config/index.js";
import type { PaneLaunch } from "../ports.js";
import { slurmJobComment, slurmJobName } from "./naming.js";

/** One agent's job as `org up` records it in state/slurm/<agent>/slurm.json; the pane submits from it. */
export interface SlurmJobRequest {
  org: string;
  agent: string;
  gpu: boolean;
  /** Where the job's own output (the holder's, not the agent's) goes; on the shared filesystem. */
  output: string;
  cwd: string;
  settings: SlurmConfig;
  /** The agent program itself, run as a step of the job; launch.json holds `org slurm-run` instead. */
  launch: PaneLaunch;
  /** The program's resume argv (a restart with a conversation runs it in the job); absent when it cannot resume. */
  resume?: string[];
}

// The job only holds the allocation: the agent runs in it as an `srun --overlap --pty` step from its pane,
// so the job outlives our processes and a person can type into the agent. The constant --wrap carries no user data.
const HOLD = "exec sleep infinity";

/**
 * sbatch argv for one agent's job: named and commented as ours, one GPU when the role has one,
 * requeued on preemption.
 */
export function sbatchArgv(request: SlurmJobRequest): string[] {
  const { settings } = request;
  return [
    "sbatch", "--parsable",
    `--job-name=${slurmJobName(request.org, request.agent)}`,
    `--comment=${slurmJobComment(request.org, request.agent)}`,
    ...(request.gpu ? ["--gres=gpu:1"] : []),
    ...(settings.partition ? [`--partition=${settings.partition}`] : []),
    ...(settings.account ? [`--account=${settings.account}`] : []),
    `--time=${settings.time_limit}`,
    "--requeue",
    `--output=${request.output}`,
    `--chdir=${request.cwd}`,
    // Plain ALL: ALL,VAR=x makes slurmd run `su -` for a login environment before every job.
    "--export=ALL",
    ...settings.sbatch_args,
    "--wrap", HOLD,
  ];
}

// On the node: the agent in its sandbox where bwrap works there (without capabilities),
// else unsandboxed with a warning on its pane.
const ON_NODE = [
  `b=$(command -v bwrap) && "$b" --unshare-user --cap-drop ALL --ro-bind / / true 2>/dev/null && exec "$b" "$@"`,
  `while [ $# -gt 0 ] && [ "$1" != -- ]; do shift; done; shift`,
  `echo "org: warning: no working bwrap on $(hostname): this agent runs WITHOUT a sandbox — ` +
    `install bubblewrap on the cluster's nodes" >&2`,
  `exec "$@"`,
].join("\n");

/**
 * argv of an agent's pane once its job runs: the agent as a step of the job, on the pane's terminal;
 * in its sandbox when it has one.
 */
export function slurmPaneArgv(
  jobId: string,
  launch: Pick<PaneLaunch, "argv" | "cwd">,
  sandbox?: { args: string[] },
): string[] {
  const step = sandbox ? ["/bin/sh", "-c", ON_NODE, "org-sandbox", ...sandbox.args, "--", ...launch.argv] : launch.argv;
  return ["srun", `--jobid=${jobId}`, "--overlap", "--pty", "--quiet", `--chdir=${launch.cwd}`, ...step];
}

/** argv that runs a verify command inside an agent's allocation (its GPU), as another step of its job. */
export function slurmVerifyArgv(jobId: string, verify: { argv: string[]; cwd: string }): string[] {
  return ["srun", `--jobid=${jobId}`, "--overlap", "--quiet", `--chdir=${verify.cwd}`, ...verify.argv];
}

/**
 * What an agent's pane runs under backend: slurm: `org slurm-run`, which finds or submits the job,
 * waits, then srun.
 */
export function slurmPaneLaunch(orgArgv: string[], state: string, launch: PaneLaunch, agent: string): PaneLaunch {
  return { argv: slurmRunArgv(orgArgv, state, agent), cwd: launch.cwd, env: launch.env };
}

/**
 * `org slurm-run`; with `resume`, the step runs the program's resume argv (slurm.json's `resume`)
 * rather than its start.
 */
export function slurmRunArgv(orgArgv: string[], state: string, agent: string, resume = false): string[] {
  return [...orgArgv, "slurm-run", agent, "--state", state, ...(resume ? ["--resume"] : [])];
}

/**
 * argv of one verify run under verify.gpus: pool: a job of its own with one GPU, for exactly as long as the run.
 * Its limit is verify.timeout, which Slurm counts from the run's start, so a wait in the queue is no timeout.
 */
export function slurmPoolRunArgv(
  org: string,
  settings: SlurmConfig,
  run: { argv: string[]; cwd: string; timeoutMs: number },
): string[] {
  return [
    "srun", "--quiet",
    `--job-name=${slurmJobName(org, POOL_JOB)}`,
    `--comment=${slurmJobComment(org, POOL_JOB)}`,
    "--gres=gpu:1",
    ...(settings.partition ? [`--partition=${settings.partition}`] : []),
    ...(settings.account ? [`--account=${settings.account}`] : []),
    `--time=${formatSlurmTime(run.timeoutMs)}`,
    ...settings.sbatch_args,
    `--chdir=${run.cwd}`,
    ...run.argv,
  ];
}

// Never an agent's name (those end in -<n>), so `org down` cancels these jobs with the agents'
// and none is mistaken for one.
const POOL_JOB = "verifier";

// Slurm's minutes:seconds, rounded up to a whole second.
function formatSlurmTime(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/**
 * The node a run's log says went down under it (`srun: error: Node failure on node3`, or slurmstepd's
 * `*** STEP … ON node3 CANCELLED AT … DUE TO NODE FAILURE …`); srun may still exit 0, so the log is what tells.
 */
export function failedNodeOf(log: string): string | undefined {
  const stepd = /\*\*\* (?:JOB|STEP) \S+ ON (\S+) CANCELLED AT \S+ DUE TO NODE FAILURE/;
  return /^srun: error: Node failure on (\S+)$/m.exec(log)?.[1] ?? stepd.exec(log)?.[1];
}

/**
 * argv that asks the controller for one node's own state. Not sinfo: its %T says `mixed` for a node just set DOWN
 * while the job it killed still completes, so a run cut by the node's end read as a crash.
 */
export function nodeStateArgv(node: string): string[] {
  return ["scontrol", "--oneliner", "show", "node", node];
}

/** Whether `scontrol -o show node` says the node is down, failed, drained or not responding (`State=DOWN*+DRAIN`). */
export function isNodeDown(scontrol: string): boolean {
  const state = /(?:^|\s)State=(\S+)/.exec(scontrol)?.[1] ?? "";
  return state.split("+").some((part) => /^(down|drain|fail|maint|unknown|not_responding)|\*$/i.test(part));
}

/**
 * Whether a run's log says Slurm ended it at its time limit
 * (slurmstepd's `*** … CANCELLED AT … DUE TO TIME LIMIT ***`).
 */
export function endedByTimeLimit(log: string): boolean {
  return /\*\*\* (JOB|STEP) \S+ ON \S+ CANCELLED AT \S+ DUE TO TIME LIMIT/.test(log);
}
