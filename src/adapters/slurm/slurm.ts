import { selectJobsToCancel } from "../../domain/slurm/decide-job.js";
import type { SlurmJob } from "../../domain/slurm/job.js";
import { parseGpuIndices, parseSqueue, parseSubmittedId, SQUEUE_FORMAT, withGpus } from "../../domain/slurm/parse.js";
import { processRunner, type RunResult, type Runner } from "../process.js";

export type SlurmResult<T> = { ok: true; value: T } | { ok: false; error: string };

export interface ListOptions {
  /** Only a listing taken at or after this time (ms) will do: one from before a submit may lack its job. */
  since?: number;
  /** GPUs of running jobs a listing already showed: scontrol is asked only about the others. */
  knownGpus?: ReadonlyMap<string, number[]>;
}

/** Slurm's client commands as data: every call is an argv through the runner, every failure a message. */
export interface SlurmPort {
  /** Every job the controller still knows (finished ones for MinJobAge), GPU indices filled in for running ones. */
  listJobs(options?: ListOptions): Promise<SlurmResult<SlurmJob[]>>;
  submit(argv: string[], env?: Record<string, string>): Promise<SlurmResult<string>>;
  cancel(ids: string[]): Promise<SlurmResult<number>>;
  /** Lets a pending job start as soon as it fits (drops a requeue's BeginTime delay). */
  startNow(id: string): Promise<SlurmResult<string>>;
}

const TIMEOUT_MS = 30_000;

export function createSlurm(runner: Runner = processRunner, env?: Record<string, string | undefined>): SlurmPort {
  const run = (
    argv: string[], extraEnv?: Record<string, string>,
  ) => runner.run(argv, { timeoutMs: TIMEOUT_MS, env: { ...env, ...extraEnv } });
  return {
    async listJobs(options) {
      const queue = await run(["squeue", "--noheader", "--states=all", `--format=${SQUEUE_FORMAT}`]);
      if (!succeeded(queue)) return failure(queue);
      const jobs = parseSqueue(queue.stdout);
      const known = options?.knownGpus ?? new Map<string, number[]>();
      const unknown = jobs.some((job) => job.kind === "running" && !known.has(job.id));
      if (!unknown) return { ok: true, value: withGpus(jobs, known) };
      // squeue shows no GPU index; scontrol's detail lines do (`GRES=gpu:1(IDX:2)`).
      const detail = await run(["scontrol", "show", "job", "--details", "--oneliner"]);
      if (!succeeded(detail)) return failure(detail);
      return { ok: true, value: withGpus(jobs, new Map([...known, ...parseGpuIndices(detail.stdout)])) };
    },
    async submit(argv, extraEnv) {
      const result = await run(argv, extraEnv);
      if (!succeeded(result)) return failure(result);
      const id = parseSubmittedId(result.stdout);
      return id
        ? { ok: true, value: id }
        : { ok: false, error: `sbatch printed no job id: ${result.stdout.trim() || "(nothing)"}` };
    },
    async startNow(id) {
      const result = await run(["scontrol", "update", `JobId=${id}`, "StartTime=now"]);
      return succeeded(result) ? { ok: true, value: id } : failure(result);
    },
    async cancel(ids) {
      if (ids.length === 0) return { ok: true, value: 0 };
      const result = await run(["scancel", ...ids]);
      return succeeded(result) ? { ok: true, value: ids.length } : failure(result);
    },
  };
}

function succeeded(result: RunResult): boolean {
  return result.exitCode === 0 && !result.spawnError;
}

function failure(result: RunResult): { ok: false; error: string } {
  const program = result.argv[0] ?? "slurm";
  if (result.spawnError) return {
    ok: false,
    error: `${program} could not be started (${result.spawnError}) — install Slurm's client commands or put them on `
      + `PATH`,
  };
  if (result.timedOut) return {
    ok: false, error: `${program} did not answer within ${TIMEOUT_MS / 1000} s — is slurmctld reachable?`,
  };
  const detail = (result.stderr.trim() || result.stdout.trim()).split("\n").slice(-2).join("; ");
  return { ok: false, error: `${program} exited ${result.exitCode ?? result.signal}: ${detail || "no output"}` };
}

/** `org down` under backend: slurm: cancel exactly this org's live jobs (by comment), never anyone else's. */
export async function cancelOrgJobs(slurm: SlurmPort, org: string): Promise<SlurmResult<string[]>> {
  const listed = await slurm.listJobs();
  if (!listed.ok) return listed;
  const ids = selectJobsToCancel(listed.value, org);
  const cancelled = await slurm.cancel(ids);
  return cancelled.ok ? { ok: true, value: ids } : cancelled;
}
