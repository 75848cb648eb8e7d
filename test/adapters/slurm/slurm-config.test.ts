import { describe, expect, it } from "vitest";
import { VALID, load, problemsOf } from "../../fixtures/configs/fake-probe.js";

const slurm = (section: string) => `${VALID}backend: slurm\nslurm:\n${section}`;

describe("config: backend and the slurm section", () => {
  it("defaults to the local backend with no slurm section", async () => {
    const result = await load(VALID);
    expect(result.ok && [result.loaded.config.backend, result.loaded.config.slurm]).toEqual(["local", undefined]);
  });

  it("fills every slurm key's default", async () => {
    const result = await load(slurm("  partition: gpu\n"));
    expect(result.ok && result.loaded.config.slurm).toEqual({
      partition: "gpu",
      time_limit: "UNLIMITED",
      sbatch_args: [],
      cpu_roles: "local",
    });
  });

  it.each(["90", "30:00", "4:00:00", "1-00:00:00", "2-12", "UNLIMITED"])("accepts the time limit %s", async (time) => {
    expect(await problemsOf(slurm(`  time_limit: "${time}"\n`))).toEqual([]);
  });

  it("an unknown backend", async () => {
    expect(await problemsOf(`${VALID}backend: kubernetes\n`)).toEqual([
      'org.yaml:8:10: backend must be one of local, slurm, got "kubernetes" — write local or slurm',
    ]);
  });

  it("a time limit Slurm cannot read", async () => {
    expect(await problemsOf(slurm("  time_limit: 2h\n"))).toEqual([
      'org.yaml:10:15: slurm.time_limit "2h" is not a Slurm time — write minutes ("90"), H:MM:SS ("4:00:00"), ' +
        'D-HH:MM:SS ("1-00:00:00") or UNLIMITED',
    ]);
  });

  it("a time limit per role: one for a role that does not exist, one Slurm cannot read", async () => {
    expect(
      await problemsOf(slurm('  role_time_limits: { researcher: "4:00:00", reseacher: "90", chief: 2h }\n')),
    ).toEqual([
      "org.yaml:10:57: slurm.role_time_limits.reseacher names no role — use one of: researcher",
      "org.yaml:10:70: slurm.role_time_limits.chief names no role — use one of: researcher",
      'org.yaml:10:70: slurm.role_time_limits.chief "2h" is not a Slurm time — write minutes ("90"), ' +
        'H:MM:SS ("4:00:00"), D-HH:MM:SS ("1-00:00:00") or UNLIMITED',
    ]);
  });

  it("a partition with a space and an account with a slash", async () => {
    expect(await problemsOf(slurm('  partition: "gpu large"\n  account: lab/ml\n'))).toEqual([
      `org.yaml:10:14: slurm.partition "gpu large" is not a Slurm partition name — use letters, digits, '_', ` +
        `'-' or '.', several separated by commas, e.g. "gpu"`,
      `org.yaml:11:12: slurm.account "lab/ml" is not a Slurm account name — use letters, digits, '_', '-' or '.', ` +
        `several separated by commas, e.g. "gpu"`,
    ]);
  });

  it("sbatch arguments that org sets itself, each with its owner", async () => {
    expect(
      await problemsOf(
        slurm('  sbatch_args: ["--mem=8G", "--partition=big", "-J", x, "--gres=gpu:2", "--wrap=true", "-t60"]\n'),
      ),
    ).toEqual([
      'org.yaml:10:29: slurm.sbatch_args[1] "--partition=big" is set by org — set slurm.partition instead',
      'org.yaml:10:48: slurm.sbatch_args[2] "-J" is set by org — remove it; ' +
        'org names and tags its jobs to find exactly its own',
      'org.yaml:10:57: slurm.sbatch_args[4] "--gres=gpu:2" is set by org — remove it; ' +
        'org asks for one GPU per agent of a role with gpu: true',
      'org.yaml:10:73: slurm.sbatch_args[5] "--wrap=true" is set by org — remove it; org sets it for every agent job',
      'org.yaml:10:88: slurm.sbatch_args[6] "-t60" is set by org — set slurm.time_limit instead',
    ]);
  });

  it("an unknown cpu_roles value and a misspelled key", async () => {
    expect(await problemsOf(slurm("  cpu_roles: remote\n  partiton: gpu\n"))).toEqual([
      'org.yaml:10:14: slurm.cpu_roles must be one of local, job, got "remote" — write local or job',
      'org.yaml:11:3: unknown key "partiton" in slurm — did you mean "partition"?',
    ]);
  });

  it("an explicit GPU list with backend: slurm", async () => {
    expect(await problemsOf(`${VALID}gpus: [0, 1]\nbackend: slurm\n`)).toEqual([
      "org.yaml:8:7: gpus lists GPU indices, but with backend: slurm Slurm assigns each agent's GPU — remove gpus, " +
        "or set backend: local",
    ]);
  });
});
