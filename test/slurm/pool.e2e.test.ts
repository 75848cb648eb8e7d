import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { createSlurm, type SlurmPort } from "../../src/adapters/slurm/slurm.js";
import { jobsByAgent } from "../../src/domain/slurm/decide-job.js";
import { runOrg } from "../helpers/org-cli.js";
import { pollUntil } from "../helpers/poll.js";
import { CLUSTER_START_MS, startCluster } from "./cluster.js";
import { poolOrgYaml } from "./pool-org.js";
import { createTestOrg, readResultRows, teardownOrg, type TestOrg } from "../helpers/test-org/index.js";

// Three researchers that submit forever, no GPU of their own: every verify run is a one-GPU Slurm job of the pool,
// on partition node3 (one node of the test cluster, which no other test file uses).
const orgYaml = poolOrgYaml(3, 2, "node3");
// The run says where Slurm put it: its job and the GPU of its allocation.
const TRAIN =
  'echo "slurm job=$SLURM_JOB_ID gpu=$CUDA_VISIBLE_DEVICES"; sleep 1; echo "val_bpb: $(head -n 1 value.txt)"\n';

let slurm: SlurmPort;
let org: TestOrg | undefined;

afterEach(() => {
  teardownOrg(org);
  org = undefined;
});

describe("verify.gpus: pool on a real single-host cluster", { tags: ["slurm"] }, () => {
  beforeAll(async () => {
    await startCluster();
    slurm = createSlurm();
  }, CLUSTER_START_MS);

  test("3 researchers, no job of their own: each run is an org-<name>-verifier " +
    "job with one GPU of its own; down leaves no job", async () => {
    org = createTestOrg({ yaml: orgYaml, files: { "train.sh": TRAIN, "value.txt": "1.000\n" } });
    const { dir, name } = org;
    const state = join(dir, "state");
    const up = runOrg(["up", "--no-attach"], { cwd: dir });
    expect(up.code, up.stderr).toBe(0);
    const rows = () => {
      try {
        return readResultRows(state);
      } catch {
        return [];
      }
    };
    const explain = () =>
      `${runOrg(["status"], { cwd: dir }).stdout}\n${readFileSync(join(state, "log.md"), "utf8").slice(-3000)}`;
    // Every agent's baseline and two experiments of each judged.
    await pollUntil(
      () =>
        ["researcher-1", "researcher-2", "researcher-3"].every(
          (agent) => rows().filter((row) => row[5] === agent).length >= 3,
        ),
      { timeoutMs: 180_000, what: "3 rows per researcher", explain },
    );
    const judged = rows();
    expect(judged.every((row) => row[3] === "keep" || row[3] === "discard"), JSON.stringify(judged)).toBe(true);
    // Each run's log names its Slurm job and one GPU of the 4 fake ones.
    // (The same change another researcher already ran is answered from its row, with no run: runs are fewer than rows.)
    const logs = readdirSync(join(state, "runs"))
      .filter((file) => file.endsWith(".log"))
      .map((file) => readFileSync(join(state, "runs", file), "utf8"))
      .filter((text) => /^val_bpb:/m.test(text));
    const placed = logs.flatMap((text) => {
      const match = /slurm job=(\d+) gpu=(\d*)/.exec(text);
      return match ? [{ job: match[1]!, gpu: match[2]! }] : [];
    });
    expect(placed.length, logs.join("\n---\n")).toBe(logs.length);
    expect(placed.length).toBeGreaterThanOrEqual(4);
    for (const run of placed) expect(run.gpu).toMatch(/^[0-3]$/);
    expect(new Set(placed.map((run) => run.job)).size).toBe(placed.length);
    // The jobs are the pool's, as Slurm lists them: named and commented for the org's verifier, none an agent's.
    const listed = await slurm.listJobs();
    if (!listed.ok) throw new Error(listed.error);
    const ours = jobsByAgent(listed.value, name);
    expect([...ours.keys()]).toEqual(["verifier"]);
    const jobIds = new Set(ours.get("verifier")!.map((job) => job.id));
    for (const run of placed) expect(jobIds.has(run.job)).toBe(true);

    const down = runOrg(["down"], { cwd: dir });
    expect(down.code, down.stderr).toBe(0);
    await pollUntil(async () => {
      const after = await slurm.listJobs();
      return after.ok && [...jobsByAgent(after.value, name).values()].flat().every((job) => job.kind === "ended");
    }, { timeoutMs: 30_000, what: "no live job of ours" });
  }, 240_000);
});
