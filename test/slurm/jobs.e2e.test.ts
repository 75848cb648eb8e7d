import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { writeJsonAtomic } from "../../src/adapters/fs/files.js";
import { processRunner } from "../../src/adapters/process.js";
import { cancelOrgJobs, createSlurm, type SlurmPort } from "../../src/adapters/slurm/slurm.js";
import { attachAgentJob } from "../../src/adapters/slurm/job-attach.js";
import { SlurmSchema } from "../../src/domain/config/schema.js";
import { sbatchArgv, slurmVerifyArgv, type SlurmJobRequest } from "../../src/domain/slurm/job-argv.js";
import { jobsByAgent } from "../../src/domain/slurm/decide-job.js";
import type { SlurmJob } from "../../src/domain/slurm/job.js";
import { slurmAgentPaths } from "../../src/domain/slurm/slurm-paths.js";
import { pollUntil } from "../helpers/poll.js";
import { createPaneHost, CLUSTER_START_MS, startCluster } from "./cluster.js";

// Real single-host Slurm (test/slurm/start.sh), on partition
// node2 alone: its 4 fake GPUs, which no other test file uses.
// Each test uses its own org name, so jobs never mix.
const NODE = "node2";
let slurm: SlurmPort;
let state: string;
let org: string;
let host: ReturnType<typeof createPaneHost>;
let testIndex = 0;

const AGENT = ["bash", "-c", 'echo "CVD=$CUDA_VISIBLE_DEVICES JOB=$SLURM_JOB_ID"; exec sleep 600'];

async function ours(): Promise<Map<string, SlurmJob[]>> {
  const listed = await slurm.listJobs();
  if (!listed.ok) throw new Error(listed.error);
  return jobsByAgent(listed.value, org);
}

async function prepareAgent(agent: string, gpu = true): Promise<void> {
  await mkdir(join(state, "agents", agent), { recursive: true });
  const launch = { argv: AGENT, cwd: state, env: { ORG_AGENT: agent } };
  const request: SlurmJobRequest = {
    org,
    agent,
    gpu,
    output: slurmAgentPaths(state, agent).output,
    cwd: state,
    settings: SlurmSchema.parse({ time_limit: "10", partition: NODE }),
    launch,
  };
  await writeJsonAtomic(slurmAgentPaths(state, agent).request, request);
}

// What the panes' attach wrote to log.md, entry by entry.
let logMd: string[] = [];

function attach(agent: string, log: string[]): Promise<number> {
  const appendLog = async (entry: string) => void logMd.push(entry);
  return attachAgentJob({
    state,
    agent,
    slurm,
    log: (line) => log.push(line),
    appendLog,
    pollMs: 200,
    interactive: (argv, env) => host.run(agent, argv, env),
  });
}

describe("slurm backend on a real single-host cluster", { tags: ["slurm"] }, () => {
  beforeAll(async () => {
    const started = await startCluster();
    console.log(`test/slurm/start.sh: ${started.ms} ms (${started.output.split("\n").pop()})`);
    slurm = createSlurm();
  }, CLUSTER_START_MS);

  beforeEach(async () => {
    org = `t${process.pid}x${testIndex++}`;
    logMd = [];
    state = mkdtempSync(join(tmpdir(), "org-slurm-"));
    host = createPaneHost(`org-slurm-test-${process.pid}`);
    await host.start();
  });

  afterEach(async () => {
    await cancelOrgJobs(slurm, org);
    await host.kill();
    rmSync(state, { recursive: true, force: true });
  });


  it("5 agents on 4 GPUs: 4 run with distinct GPUs, " +
    "the 5th shows pending (Resources) and starts when one ends", async () => {
    const agents = ["r1", "r2", "r3", "r4", "r5"];
    const logs = new Map(agents.map((agent) => [agent, [] as string[]]));
    const submittedAt = Date.now();
    for (const agent of agents.slice(0, 4)) await prepareAgent(agent);
    const runs = agents.slice(0, 4).map((agent) => attach(agent, logs.get(agent)!));
    await pollUntil(
      async () =>
        [...(await ours()).values()].filter((jobs) => jobs.some((job) => job.kind === "running")).length === 4,
      { timeoutMs: 20_000, what: "4 running jobs" },
    );
    const toRunningMs = Date.now() - submittedAt;
    await prepareAgent("r5");
    const fifth = attach("r5", logs.get("r5")!);
    const jobs = await ours();
    const running = [...jobs.values()].flat().filter((job) => job.kind === "running");
    expect(new Set(running.flatMap((job) => job.gpus)).size).toBe(4);
    // Every pane runs its agent as a step of its job: CUDA_VISIBLE_DEVICES is the job's GPU, from Slurm.
    for (const agent of agents.slice(0, 4)) {
      const job = jobs.get(agent)!.find((candidate) => candidate.kind === "running")!;
      const screen = await pollUntil(async () => /CVD=\S+ JOB=\d+/.exec(await host.screen(agent))?.[0], {
        what: `${agent}'s pane`,
      });
      expect(screen).toBe(`CVD=${job.kind === "running" ? job.gpus.join(",") : "?"} JOB=${job.id}`);
    }
    await pollUntil(() => logs.get("r5")!.some((line) => /^org: job \d+ pending \(Resources\)$/.test(line)), {
      what: "r5 pending (Resources)",
    });
    const record = JSON.parse(readFileSync(slurmAgentPaths(state, "r5").job, "utf8")) as { status: string };
    expect(record.status).toBe("pending (Resources)");
    // The verifier runs inside an agent's allocation: another step of its job, on its GPU.
    const r1 = jobs.get("r1")!.find((job) => job.kind === "running")!;
    const verify = await processRunner.run(
      slurmVerifyArgv(r1.id, { argv: ["bash", "-c", "echo $CUDA_VISIBLE_DEVICES"], cwd: state }),
      { timeoutMs: 20_000 },
    );
    expect(verify.stdout.trim()).toBe(r1.kind === "running" ? r1.gpus.join(",") : "?");

    const freedAt = Date.now();
    await slurm.cancel([r1.id]);
    expect(await runs[0]).not.toBe(0);
    await pollUntil(() => logs.get("r5")!.some((line) => line.includes("running on")), {
      timeoutMs: 20_000,
      what: "r5 running",
    });
    const startMs = Date.now() - freedAt;
    expect(await pollUntil(async () => /CVD=\d+/.exec(await host.screen("r5"))?.[0], { what: "r5's pane" })).toBe(
      `CVD=${r1.kind === "running" ? r1.gpus[0] : "?"}`,
    );
    console.log(`sbatch → 4 running: ${toRunningMs} ms; freed GPU → pending job running in its pane: ${startMs} ms`);
    // Every attach ends with its pane: nothing of the test keeps polling.
    await host.kill();
    expect(await Promise.all([...runs.slice(1), fifth])).toEqual([1, 1, 1, 1]);
  }, 60_000);

  it("a job cancelled from outside is resubmitted, and a live job is adopted instead of duplicated", async () => {
    const log: string[] = [];
    await prepareAgent("r1");
    const first = attach("r1", log);
    const firstJob = await pollUntil(async () => (await ours()).get("r1")?.find((job) => job.kind === "running"), {
      timeoutMs: 20_000,
      what: "r1 running",
    });
    await pollUntil(async () => (await host.screen("r1")).includes(`JOB=${firstJob.id}`), { what: "r1's pane" });
    await processRunner.run(["scancel", firstJob.id]);
    expect(await first).not.toBe(0);
    await processRunner.run(["tmux", "-L", `org-slurm-test-${process.pid}`, "kill-window", "-t", "keep:r1"]);

    // What the supervisor does next: run the pane again. It resubmits, and the agent resumes in a new job.
    const second = attach("r1", log);
    const secondJob = await pollUntil(async () => (await ours()).get("r1")?.find((job) => job.kind === "running"), {
      timeoutMs: 20_000,
      what: "r1 resubmitted",
    });
    expect(secondJob.id).not.toBe(firstJob.id);
    expect(log).toContain(`org: job ${firstJob.id} ended CANCELLED: submitted job ${secondJob.id}`);
    expect(logMd).toEqual([
      expect.stringMatching(
        new RegExp(
          `^## \\[[-\\d]+\\] slurm \\| r1 resubmitted\\njob ${firstJob.id} ended CANCELLED: ` +
            `submitted job ${secondJob.id}\\n$`,
        ),
      ),
    ]);
    await pollUntil(async () => (await host.screen("r1")).includes(`JOB=${secondJob.id}`), {
      what: "r1's pane in the new job",
    });

    // A restart of ours (the pane's program ended, the job did not): adopt the running job, submit nothing.
    await processRunner.run(["tmux", "-L", `org-slurm-test-${process.pid}`, "kill-window", "-t", "keep:r1"]);
    expect(await second).toBe(1);
    const adoptLog: string[] = [];
    void attach("r1", adoptLog);
    await pollUntil(async () => (await host.screen("r1")).includes(`JOB=${secondJob.id}`), {
      what: "r1's pane adopted",
    });
    expect(adoptLog).toEqual([`org: job ${secondJob.id} running on ${NODE} GPU ${secondJob.gpus.join(",")}`]);
    expect(
      (await ours())
        .get("r1")!
        .filter((job) => job.kind !== "ended")
        .map((job) => job.id),
    ).toEqual([secondJob.id]);
  }, 60_000);

  it("cancelling ours leaves no job of ours in squeue and another org's job untouched", async () => {
    const other = `${org}o`;
    const submit = (owner: string, agent: string, gpu: boolean) =>
      slurm.submit(
        sbatchArgv({
          org: owner,
          agent,
          gpu,
          output: "/dev/null",
          cwd: state,
          settings: SlurmSchema.parse({ time_limit: "10" }),
          launch: { argv: AGENT, cwd: state, env: {} },
        }),
      );
    for (const agent of ["r1", "r2", "r3"]) expect((await submit(org, agent, true)).ok).toBe(true);
    expect((await submit(org, "chief", false)).ok).toBe(true);
    const foreign = await submit(other, "r1", true);
    const cancelled = await cancelOrgJobs(slurm, org);
    expect(cancelled.ok && cancelled.value).toHaveLength(4);
    await pollUntil(async () => [...(await ours()).values()].flat().every((job) => job.kind === "ended"), {
      what: "no live job of ours",
    });
    const left = await slurm.listJobs();
    const theirs = left.ok ? left.value.find((job) => foreign.ok && job.id === foreign.value) : undefined;
    expect(theirs?.kind).toMatch(/pending|running/);
    await slurm.cancel(foreign.ok ? [foreign.value] : []);
  }, 60_000);
});
