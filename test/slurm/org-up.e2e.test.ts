import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { createSlurm, type SlurmPort } from "../../src/adapters/slurm/slurm.js";
import { jobsByAgent } from "../../src/domain/slurm/decide-job.js";
import { runOrg } from "../helpers/org-cli.js";
import { pollUntil } from "../helpers/poll.js";
import { CLUSTER_START_MS, startCluster } from "./cluster.js";
import { bin, createTestOrg, teardownOrg, type TestOrg, tmux } from "../helpers/test-org/index.js";

// The same kind of org as the local e2e tests, with backend: slurm: each researcher is one job with one fake GPU.
// Partition node1 is one node of the test cluster, with 4 GPUs no other test file uses.
const orgYaml = (name: string) => `name: ${name}
gpus: auto
backend: slurm
slurm: { time_limit: "10:00", partition: node1 }
runtimes:
  printer: { command: ["${bin("print-env-sleep")}"], restart: always }
roles:
  researcher: { prompt: prompts/researcher.md, runtime: printer, count: 5, gpu: true }
supervisor: { backoff: 200ms, max_backoff: 1s, max_restarts: 5, healthy_after: 2s }
`;

interface StatusJson {
  agents: { name: string; gpu: number | null; state: string; reason: string }[];
}

let slurm: SlurmPort;
let org: TestOrg | undefined;

afterEach(() => {
  teardownOrg(org);
  org = undefined;
});

describe("org up with backend: slurm on a real single-host cluster", { tags: ["slurm"] }, () => {
  beforeAll(async () => {
    await startCluster();
    slurm = createSlurm();
  }, CLUSTER_START_MS);

  test("5 researchers on 4 GPUs: 4 run on distinct GPUs, 1 pending (Resources); " +
    "a job cancelled from outside is resubmitted; down cancels ours", async () => {
    org = createTestOrg({ yaml: orgYaml });
    const { dir, socket, name } = org;
    const ours = async () => {
      const listed = await slurm.listJobs();
      if (!listed.ok) throw new Error(listed.error);
      return jobsByAgent(listed.value, name);
    };
    const up = runOrg(["up"], { cwd: dir });
    expect(up.code, up.stderr).toBe(0);
    expect(up.stderr).not.toContain("CPU mode");
    const status = () => JSON.parse(runOrg(["status", "--json"], { cwd: dir }).stdout) as StatusJson;
    const settled = await pollUntil(() => {
      const now = status();
      const running = now.agents.filter((agent) => agent.state === "running" && agent.gpu !== null);
      // Slurm gives a job just queued no reason ("None") until its scheduler's next pass.
      const waiting = now.agents.some((agent) => agent.state === "pending" && agent.reason === "pending (Resources)");
      return running.length === 4 && waiting ? now : undefined;
    }, { timeoutMs: 30_000, what: "4 running on GPUs and 1 pending (Resources)" });
    const running = settled.agents.filter((agent) => agent.state === "running");
    expect(new Set(running.map((agent) => agent.gpu)).size).toBe(4);
    expect(settled.agents.find((agent) => agent.state === "pending")!.reason).toBe("pending (Resources)");
    // Each pane is its job's terminal: the agent sees Slurm's CUDA_VISIBLE_DEVICES, not a lease of ours.
    const panes = tmux(socket, ["list-panes", "-s", "-t", `org-${name}`, "-F", "#{pane_id} #{@org_agent}"])
      .out.trim()
      .split("\n")
      .map((line) => line.split(" "));
    for (const agent of running) {
      const pane = panes.find(([, label]) => label === agent.name)![0]!;
      await pollUntil(
        () =>
          tmux(socket, ["capture-pane", "-p", "-t", pane])
            .out.split("\n")
            .includes(`CUDA_VISIBLE_DEVICES=${agent.gpu}`),
        { what: `${agent.name}'s GPU in its pane` },
      );
    }

    const victim = running[0]!.name;
    const job = (await ours()).get(victim)!.find((candidate) => candidate.kind === "running")!;
    const scancel = await slurm.cancel([job.id]);
    expect(scancel.ok).toBe(true);
    // The freed GPU goes to the pending agent; the victim's pane is restarted and submits a new job, which waits.
    await pollUntil(async () => {
      const jobs = (await ours()).get(victim) ?? [];
      return jobs.some(
        (candidate) => candidate.id !== job.id && (candidate.kind === "pending" || candidate.kind === "running"),
      );
    }, { timeoutMs: 30_000, what: `${victim}'s job resubmitted` });
    await pollUntil(() => status().agents.filter((agent) => agent.state === "running").length === 4, {
      timeoutMs: 30_000,
      what: "4 running again",
    });

    const down = runOrg(["down"], { cwd: dir });
    expect(down.stdout).toContain(`cancelled 5 Slurm jobs of org ${name}`);
    await pollUntil(async () => [...(await ours()).values()].flat().every((candidate) => candidate.kind === "ended"), {
      timeoutMs: 20_000,
      what: "no live job of ours",
    });
  });
});
