import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSharedListing } from "../../../src/adapters/slurm/shared-listing.js";
import type { ListOptions, SlurmPort } from "../../../src/adapters/slurm/slurm.js";
import type { SlurmJob } from "../../../src/domain/slurm/job.js";

const RUNNING: SlurmJob = { id: "7", name: "org-o-r1", comment: "org/o/r1", kind: "running", node: "node2", gpus: [3] };
const PENDING: SlurmJob = { id: "8", name: "org-o-r2", comment: "org/o/r2", kind: "pending", reason: "Resources" };

let dir: string;
let calls: ListOptions[];
let clock: number;

function fakeSlurm(): SlurmPort {
  return {
    async listJobs(options) {
      calls.push(options ?? {});
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { ok: true, value: [RUNNING, PENDING] };
    },
    submit: async () => ({ ok: true, value: "9" }),
    cancel: async (ids) => ({ ok: true, value: ids.length }),
    startNow: async (id) => ({ ok: true, value: id }),
  };
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "org-shared-listing-"));
  calls = [];
  clock = 1_000_000;
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the org's shared squeue (createSharedListing)", () => {
  const shared = () => createSharedListing(fakeSlurm(), {
    file: join(dir, "queue.json"), intervalMs: 2000, now: () => clock,
  });

  it("64 panes asking at once make one squeue, and all get its jobs", async () => {
    const panes = Array.from({ length: 64 }, shared);
    const results = await Promise.all(panes.map((pane) => pane.listJobs()));
    expect(calls).toHaveLength(1);
    for (const result of results) expect(result).toEqual({ ok: true, value: [RUNNING, PENDING] });
  });

  it("asks again once the listing is older than the interval, telling which running jobs' GPUs it knows", async () => {
    const pane = shared();
    await pane.listJobs();
    clock += 1999;
    await pane.listJobs();
    expect(calls).toHaveLength(1);
    clock += 2;
    await pane.listJobs();
    expect(calls).toHaveLength(2);
    expect(calls[1]!.knownGpus).toEqual(new Map([["7", [3]]]));
  });

  it("a listing from before a submit is not good enough for its submitter", async () => {
    const pane = shared();
    await pane.listJobs();
    clock += 10;
    await pane.listJobs({ since: clock });
    expect(calls).toHaveLength(2);
  });
});
