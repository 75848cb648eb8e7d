import { describe, expect, it } from "vitest";
import { ConfigSchema } from "../../../src/domain/config/schema.js";
import type { FilesPort } from "../../../src/domain/ports.js";
import { prepareSlurmAgents, runsAsJob } from "../../../src/domain/slurm/prepare-jobs.js";
import { sbatchArgv, type SlurmJobRequest } from "../../../src/domain/slurm/job-argv.js";
import type { LaunchSpec } from "../../../src/domain/state.js";

const config = (extra: object) => ConfigSchema.parse({
  name: "demo", runtimes: { bot: { command: ["bot"] } },
  roles: {
    researcher: { prompt: "p.md", runtime: "bot", gpu: true, count: 2 },
    chief: { prompt: "p.md", runtime: "bot" },
  },
  ...extra,
});
const launch = (agent: string): LaunchSpec => ({
  agent,
  role: agent === "chief" ? "chief" : "researcher",
  argv: ["bot", "--go"],
  cwd: `/org/worktrees/${agent}`,
  env: { ORG_AGENT: agent, CUDA_VISIBLE_DEVICES: "0" },
  restart: "on-failure", backoffMs: 1000, maxBackoffMs: 30_000, maxRestarts: 10, healthyAfterMs: 60_000,
});
const AGENTS = [{ name: "researcher-1", role: "researcher" }, { name: "chief", role: "chief" }];

function memoryFiles(): FilesPort & { written: Map<string, string> } {
  const written = new Map<string, string>();
  const unused = () => Promise.reject(new Error("not used"));
  return {
    written,
    writeAtomic: async (path, content) => void written.set(path, content),
    exists: unused,
    readText: unused,
    appendLines: unused,
    mkdir: unused,
    share: unused,
    removeFile: unused,
    makeExecutable: unused,
    tryLock: unused,
    reclaimAgentDir: unused,
    readUntrusted: unused,
    writeUntrusted: unused,
  };
}

describe("slurm: preparing agents for org up", () => {
  it("GPU roles run as jobs; CPU roles stay local unless cpu_roles is job; the local backend runs none", () => {
    const slurm = config({ backend: "slurm" });
    expect([runsAsJob(slurm, "researcher"), runsAsJob(slurm, "chief")]).toEqual([true, false]);
    expect(runsAsJob(config({ backend: "slurm", slurm: { cpu_roles: "job" } }), "chief")).toBe(true);
    expect(runsAsJob(config({}), "researcher")).toBe(false);
  });

  it("records the real launch in slurm.json and points launch.json at org slurm-run", async () => {
    const files = memoryFiles();
    const launches = new Map(AGENTS.map((agent) => [agent.name, launch(agent.name)]));
    const slurmConfig = config({ backend: "slurm", slurm: { partition: "gpu" } });
    const orgArgv = ["node", "/o/bin/org.js"];
    const result = await prepareSlurmAgents(files, slurmConfig, "/org/state", orgArgv, AGENTS, launches);
    expect(result.get("chief")).toBe(launches.get("chief"));
    expect(result.get("researcher-1")).toEqual({
      ...launch("researcher-1"),
      argv: ["node", "/o/bin/org.js", "slurm-run", "researcher-1", "--state", "/org/state"],
      env: { ORG_AGENT: "researcher-1" },
    });
    expect([...files.written.keys()]).toEqual([
      "/org/state/slurm/researcher-1/slurm.json",
      "/org/state/agents/researcher-1/launch.json",
    ]);
    expect(JSON.parse(files.written.get("/org/state/slurm/researcher-1/slurm.json")!)).toEqual({
      org: "demo", agent: "researcher-1", gpu: true,
      output: "/org/state/slurm/researcher-1/slurm-job.out", cwd: "/org/worktrees/researcher-1",
      settings: { partition: "gpu", time_limit: "UNLIMITED", sbatch_args: [], cpu_roles: "local" },
      launch: { argv: ["bot", "--go"], cwd: "/org/worktrees/researcher-1", env: { ORG_AGENT: "researcher-1" } },
    });
    const launchJson = files.written.get("/org/state/agents/researcher-1/launch.json")!;
    expect(JSON.parse(launchJson)).toEqual(result.get("researcher-1"));
  });

  it("each role's jobs get its own time limit (slurm.role_time_limits), the others the org's", async () => {
    const files = memoryFiles();
    const agents = [...AGENTS, { name: "researcher-2", role: "researcher" }];
    const launches = new Map(agents.map((agent) => [agent.name, launch(agent.name)]));
    const settings = { time_limit: "1-00:00:00", role_time_limits: { researcher: "4:00:00" }, cpu_roles: "job" };
    await prepareSlurmAgents(files, config({ backend: "slurm", slurm: settings }), "/org/state", ["org"], agents,
      launches);
    const argv = (agent: string) =>
      sbatchArgv(JSON.parse(files.written.get(`/org/state/slurm/${agent}/slurm.json`)!) as SlurmJobRequest);
    const times = [argv("researcher-1"), argv("researcher-2"), argv("chief")]
      .map((args) => args.filter((arg) => arg.startsWith("--time=")));
    expect(times).toEqual([["--time=4:00:00"], ["--time=4:00:00"], ["--time=1-00:00:00"]]);
  });

  it("a restart that resumes the conversation runs the resume argv in the job (slurm-run --resume), " +
    "never the bare CLI here", async () => {
    const files = memoryFiles();
    const watch = { nudge: "", nudgeAfterMs: 0, nudgesPerHour: 0, answerTrust: false };
    const runtime = {
      name: "c",
      preset: "claude" as const,
      sessionId: "s1",
      home: "/h",
      resumeArgv: ["claude", "--resume", "s1"],
      transcripts: null,
      promptFile: null,
      seed: [],
      watch,
    };
    const launches = new Map([["researcher-1", { ...launch("researcher-1"), runtime }]]);
    const result = await prepareSlurmAgents(files, config({ backend: "slurm" }), "/org/state", ["org"], [AGENTS[0]!],
      launches);
    expect(result.get("researcher-1")!.runtime!.resumeArgv).toEqual([
      "org", "slurm-run", "researcher-1", "--state", "/org/state", "--resume",
    ]);
    const request = JSON.parse(files.written.get("/org/state/slurm/researcher-1/slurm.json")!) as SlurmJobRequest;
    expect(request.resume).toEqual(["claude", "--resume", "s1"]);
  });

  it("changes nothing under the local backend", async () => {
    const files = memoryFiles();
    const launches = new Map(AGENTS.map((agent) => [agent.name, launch(agent.name)]));
    expect(await prepareSlurmAgents(files, config({}), "/org/state", ["org"], AGENTS, launches)).toEqual(launches);
    expect(files.written.size).toBe(0);
  });
});
