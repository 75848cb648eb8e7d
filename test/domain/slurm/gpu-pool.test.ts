// verify.gpus: pool, decision by decision: leases and the pool, the config value, a GPU gone, the Slurm run.
import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { Runner, RunOptions } from "../../../src/adapters/process.js";
import { createVerifierPort } from "../../../src/adapters/verifier/port.js";
import type { LoadedConfig } from "../../../src/domain/config/index.js";
import { ConfigSchema, SlurmSchema } from "../../../src/domain/config/schema.js";
import { judge } from "../../../src/domain/experiments/verdict.js";
import { checkGpuPresent, type Gpu } from "../../../src/domain/lifecycle/select-gpus.js";
import { planLeases } from "../../../src/domain/reconcile/leases.js";
import { endedByTimeLimit, slurmPoolRunArgv } from "../../../src/domain/slurm/job-argv.js";
import { runsAsJob } from "../../../src/domain/slurm/prepare-jobs.js";
import { VALID, problemsOf } from "../../fixtures/configs/fake-probe.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";

const gpus = (used: number[]): Gpu[] => used.map((memoryUsedMb, index) =>
  ({ index, uuid: `GPU-${index}`, name: "H100", memoryUsedMb, memoryTotalMb: 81559 }));
const TEXT = "roles:\n  researcher: { prompt: p.md, runtime: idle, count: 8, gpu: true }\nverify:\n  gpus: pool\n";
const loaded = (extra: object = {}, mode: "own" | "pool" = "pool"): LoadedConfig => ({
  file: "org.yaml", dir: "/org", text: TEXT, repoDir: "/org", baseCommit: "c",
  config: ConfigSchema.parse({
    runtimes: { idle: { command: ["x"] } },
    roles: { researcher: { prompt: "p.md", runtime: "idle", count: 8, gpu: true } },
    verify: { command: ["x"], metric: { name: "m", pattern: "^m: (.*)" }, gpus: mode }, ...extra,
  }),
});

describe("leases and the pool", () => {
  test("8 GPU agents on 4 GPUs: none holds a GPU, the 4 are the pool", () => {
    const plan = planLeases(loaded(), gpus([1, 1, 1, 1]), new Map());
    expect(plan).toEqual({
      ok: true, leases: new Map(Array.from({ length: 8 }, (_, index) => [`researcher-${index + 1}`, null])),
      cpuMode: false, warnings: [], pool: [0, 1, 2, 3],
    });
  });

  test("own mode refuses the same org, its fix naming the pool", () => {
    const plan = planLeases(loaded({}, "own"), gpus([1, 1, 1, 1]), new Map());
    expect(plan).toEqual({
      ok: false,
      problems: [
        "org.yaml:2:53: 8 agents need a GPU each but only 4 GPUs are free (0, 1, 2, 3) — "
          + "lower the counts of roles with gpu: true, free a GPU, set verify.gpus: pool (verify runs share the GPUs, "
          + "agents hold none), or set gpus: none for CPU mode",
      ],
    });
  });

  test("someone else's busy GPU stays out; one our last pool held (a run of ours on it) stays in", () => {
    const plan = planLeases(loaded(), gpus([70_000, 1, 70_000]), new Map(), undefined, [2]);
    expect(plan.ok && plan.pool).toEqual([1, 2]);
    expect(plan.ok && plan.warnings).toEqual(["GPU 0 (H100) is busy: 70000 MiB in use by another process; skipped"]);
  });

  test("no GPU: the pool is the CPU slots", () => {
    const plan = planLeases(loaded({ gpus: "none" }), { error: "disabled" }, new Map());
    expect(plan.ok && { cpuMode: plan.cpuMode, pool: plan.pool }).toEqual({ cpuMode: true, pool: [] });
  });

  test("GPUs there but every one busy: a problem at verify.gpus, with the fix", () => {
    expect(planLeases(loaded(), gpus([70_000, 70_000]), new Map())).toEqual({
      ok: false,
      problems: [
        "org.yaml:4:9: verify.gpus is pool but no GPU is free for it — free a GPU, or set gpus: none for CPU mode",
      ],
    });
  });

  test("under Slurm the pool holds no local GPU, and GPU roles hold none: they run where cpu_roles says", () => {
    const slurm = loaded({ backend: "slurm" });
    const plan = planLeases(slurm, { error: "disabled" }, new Map());
    expect(plan.ok && plan.pool).toEqual([]);
    expect(runsAsJob(slurm.config, "researcher")).toBe(false);
    expect(runsAsJob(loaded({ backend: "slurm", slurm: { cpu_roles: "job" } }).config, "researcher")).toBe(true);
    expect(runsAsJob(loaded({ backend: "slurm" }, "own").config, "researcher")).toBe(true);
  });
});

describe("verify.gpus in org.yaml", () => {
  test("own is the default", () => {
    expect(
      ConfigSchema.parse({ roles: {}, verify: { command: ["x"], metric: { name: "m", pattern: "(.)" } } }).verify?.gpus,
    ).toBe("own");
  });

  test.each([
    ["a near miss", "pol", 'org.yaml:11:9: verify.gpus must be one of own, pool, got "pol" — did you mean "pool"?'],
    ["another word", "shared", 'org.yaml:11:9: verify.gpus must be one of own, pool, got "shared" — write own or pool'],
    ["a number", "4", "org.yaml:11:9: verify.gpus must be one of own, pool, got 4 — write own or pool"],
  ])("%s is a problem with the fix", async (_name, value, expected) => {
    const text = `${VALID}verify:\n  command: [x]\n  metric: { name: m, pattern: "(.)" }\n  gpus: ${value}\n`;
    expect(await problemsOf(text)).toEqual([expected]);
  });
});

describe("a GPU gone from nvidia-smi", () => {
  test("only a listing without it says gone; a failing nvidia-smi is no proof", () => {
    expect(checkGpuPresent(2, gpus([1, 1, 1]))).toEqual({ kind: "present" });
    expect(checkGpuPresent(2, gpus([1, 1]))).toEqual({ kind: "gone", reason: "gpu 2 is gone from nvidia-smi" });
    expect(checkGpuPresent(2, { error: "nvidia-smi exited 9: failed" })).toEqual({
      kind: "unknown",
      reason: "nvidia-smi exited 9: failed",
    });
  });

  test("a run with a fault is a crash for that reason, whatever it printed", () => {
    const verdict = judge({
      metric: { name: "m", pattern: "^m: (.*)", goal: "minimize" }, timeoutMs: 60_000, best: 1, candidate: 0.5,
      run: { exitCode: 1, signal: null, timedOut: false, fault: "gpu 2 is gone from nvidia-smi" }, paths: { ok: true },
    });
    expect(verdict).toEqual({ kind: "crash", reason: "crash: gpu 2 is gone from nvidia-smi" });
  });
});

describe("a pool run under Slurm", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) removeDir(dir);
    dir = undefined;
  });

  test("one job per run: one GPU, tagged as this org's, limited to verify.timeout, with the user's sbatch_args", () => {
    const settings = SlurmSchema.parse({ partition: "gpu", account: "lab", sbatch_args: ["--mem=8G"] });
    expect(slurmPoolRunArgv("demo", settings, {
      argv: ["python", "train.py"],
      cwd: "/org/state/verifier/cpu1",
      timeoutMs: 90_500,
    })).toEqual([
      "srun", "--quiet", "--job-name=org-demo-verifier", "--comment=org/demo/verifier", "--gres=gpu:1",
      "--partition=gpu", "--account=lab",
      "--time=1:31", "--mem=8G", "--chdir=/org/state/verifier/cpu1", "python", "train.py",
    ]);
  });

  test("Slurm's time-limit line is a timeout; other cancels are not", () => {
    expect(endedByTimeLimit(
      "step 3\nslurmstepd: error: *** STEP 812.0 ON node1 CANCELLED AT 2026-01-02T03:04:05 DUE TO TIME LIMIT ***\n",
    )).toBe(true);
    expect(endedByTimeLimit(
      "slurmstepd: error: *** JOB 812 ON node1 CANCELLED AT 2026-01-02T03:04:05 DUE TO TIME LIMIT ***",
    )).toBe(true);
    expect(endedByTimeLimit("slurmstepd: error: *** JOB 812 ON node1 CANCELLED AT 2026-01-02T03:04:05 ***"))
      .toBe(false);
  });

  test("the port runs it through srun with Slurm's CUDA_VISIBLE_DEVICES, no local clock on the queue "
    + "wait, and reads the time limit", async () => {
    dir = makeTempDir("org-pool-slurm-");
    const calls: { argv: string[]; options: RunOptions | undefined }[] = [];
    const runner: Runner = {
      async run(argv, options) {
        calls.push({ argv, options });
        appendFileSync(
          options!.outputFile!,
          "slurmstepd: error: *** STEP 9.0 ON n1 CANCELLED AT 2026-01-02T03:04:05 DUE TO TIME LIMIT ***\n",
        );
        return { argv, exitCode: 1, signal: null, stdout: "", stderr: "", timedOut: false, durationMs: 5 };
      },
    };
    const port = createVerifierPort({
      repo: dir, state: dir, runner, backend: "slurm", slurmPool: { org: "demo", settings: SlurmSchema.parse({}) },
    });
    const logFile = join(dir, "runs", "r.log");
    const result = await port.runCommand(["python", "train.py"], {
      cwd: dir, env: { CUDA_VISIBLE_DEVICES: "", ORG_AGENT: "r-1" }, logFile, timeoutMs: 60_000,
      run: { slot: "gpu0", gpu: 0, agent: "r-1", commit: "a".repeat(40), kind: "candidate", run: 1 },
    });
    expect(result).toMatchObject({ exitCode: 1, timedOut: true });
    expect(calls.map((call) => call.argv)).toEqual([
      [
        "srun", "--quiet", "--job-name=org-demo-verifier", "--comment=org/demo/verifier", "--gres=gpu:1", "--time=1:00",
        `--chdir=${dir}`, "python", "train.py",
      ],
    ]);
    expect(calls[0]!.options!.timeoutMs).toBeUndefined();
    expect(calls[0]!.options!.env).toMatchObject({ ORG_AGENT: "r-1" });
    expect(calls[0]!.options!.env).not.toHaveProperty("CUDA_VISIBLE_DEVICES");
    expect(readFileSync(logFile, "utf8")).toContain("DUE TO TIME LIMIT");
  });
});
