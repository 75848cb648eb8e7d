import { rm } from "node:fs/promises";
import type { SlurmJob } from "../../domain/slurm/job.js";
import { readJson, writeJsonAtomic } from "../fs/files.js";
import { tryLock } from "../fs/lock.js";
import { isArrayOf, isFields, isNumber } from "../../domain/json-fields.js";
import { isSlurmJob } from "../../domain/slurm/slurm-job-file.js";
import type { ListOptions, SlurmPort, SlurmResult } from "./slurm.js";

/** The org's last squeue, shared by every pane's `org slurm-run`: state/slurm/queue.json. */
interface Listing {
  /** When the squeue that produced it started (ms): a job submitted after this may be missing from it. */
  at: number;
  jobs: SlurmJob[];
}

export interface SharedListingOptions {
  /** state/slurm/queue.json; its lock is the same path with .lock. */
  file: string;
  /** A listing younger than this is answered from the file: one squeue per interval for the whole org. */
  intervalMs: number;
  now?: () => number;
}

// Whoever holds the lock runs squeue (≤ 30 s by the port's timeout); the others re-read the file until it is fresh.
const WAIT_STEP_MS = 100;

/**
 * A SlurmPort whose listJobs is shared by every agent of the org: the first caller whose listing is stale runs
 * squeue (and scontrol only for running jobs whose GPUs no listing has shown yet) and writes it for the others.
 * Submit and cancel go straight through.
 */
export function createSharedListing(slurm: SlurmPort, opts: SharedListingOptions): SlurmPort {
  const now = opts.now ?? Date.now;
  const lock = `${opts.file}.lock`;
  return {
    submit: (argv, env) => slurm.submit(argv, env),
    cancel: (ids) => slurm.cancel(ids),
    startNow: (id) => slurm.startNow(id),
    async listJobs(list?: ListOptions): Promise<SlurmResult<SlurmJob[]>> {
      const since = Math.max(list?.since ?? 0, now() - opts.intervalMs);
      for (;;) {
        const cached = await readListing(opts.file);
        if (cached && cached.at >= since) return { ok: true, value: cached.jobs };
        if (await tryLock(lock)) {
          try {
            // Another pane may have written a fresh listing between our read and our lock.
            const latest = await readListing(opts.file);
            if (latest && latest.at >= since) return { ok: true, value: latest.jobs };
            const at = now();
            const listed = await slurm.listJobs({ knownGpus: knownGpus(latest) });
            if (listed.ok) await writeJsonAtomic(opts.file, { at, jobs: listed.value } satisfies Listing);
            return listed;
          } finally {
            await rm(lock, { force: true });
          }
        }
        await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
      }
    },
  };
}

// Unreadable or of another shape, the listing is stale: the next caller to take the lock runs squeue and rewrites it.
async function readListing(file: string): Promise<Listing | undefined> {
  const value = await readJson(file).catch(() => undefined);
  return isFields(value) && isNumber(value.at) && isArrayOf(isSlurmJob)(value.jobs) ? (value as unknown as Listing)
    : undefined;
}

// A running job keeps its GPUs (none for a CPU job): once a listing showed it running, scontrol is not asked again.
function knownGpus(listing: Listing | undefined): Map<string, number[]> {
  return new Map((listing?.jobs ?? []).flatMap((job) => (job.kind === "running" ? [[job.id, job.gpus] as const] : [])));
}
