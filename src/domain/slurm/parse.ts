import { classifyJob, type SlurmJob } from "./job.js";

/** squeue's -o format: the comment goes last, so a "|" inside it cannot shift the other fields. */
export const SQUEUE_FORMAT = "%i|%j|%T|%r|%N|%k";

/** Jobs from `squeue -h -t all -o SQUEUE_FORMAT`; malformed lines are skipped. */
export function parseSqueue(stdout: string): SlurmJob[] {
  return stdout.split("\n").flatMap((line): SlurmJob[] => {
    const fields = line.trim().split("|");
    if (fields.length < 6 || !/^\d+(_\d+)?$/.test(fields[0]!)) return [];
    const [id, name, state, reason, node] = fields as [string, string, string, string, string];
    const comment = fields.slice(5).join("|");
    return [classifyJob({ id, name, comment: comment === "(null)" ? "" : comment }, state, reason, node)];
  });
}

/** GPU indices of each job from `scontrol show job -d -o` (one line per job: `... GRES=gpu:1(IDX:2) ...`). */
export function parseGpuIndices(stdout: string): Map<string, number[]> {
  const gpus = new Map<string, number[]>();
  for (const line of stdout.split("\n")) {
    const id = /(?:^|\s)JobId=(\d+)/.exec(line)?.[1];
    if (!id) continue;
    const indices = [...line.matchAll(/\sGRES=\S*?gpu[^\s(]*\(IDX:([\d,-]+)\)/g)].flatMap((match) =>
      expandRanges(match[1]!));
    if (indices.length > 0) gpus.set(id, indices);
  }
  return gpus;
}

/** Running jobs with their GPU indices filled in. */
export function withGpus(jobs: SlurmJob[], gpus: ReadonlyMap<string, number[]>): SlurmJob[] {
  return jobs.map((job) => (job.kind === "running" ? { ...job, gpus: gpus.get(job.id) ?? [] } : job));
}

/** The job id sbatch --parsable prints: `<id>` or `<id>;<cluster>`. */
export function parseSubmittedId(stdout: string): string | undefined {
  return /^(\d+)(;\S+)?$/.exec(stdout.trim())?.[1];
}

function expandRanges(text: string): number[] {
  return text.split(",").flatMap((part) => {
    const [from, to] = part.split("-").map(Number);
    if (from === undefined || Number.isNaN(from)) return [];
    if (to === undefined || Number.isNaN(to)) return [from];
    return Array.from({ length: Math.max(0, to - from + 1) }, (_, offset) => from + offset);
  });
}
