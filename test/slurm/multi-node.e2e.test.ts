import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { processRunner } from "../../src/adapters/process.js";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { createSlurm, type SlurmPort } from "../../src/adapters/slurm/slurm.js";
import { jobsByAgent } from "../../src/domain/slurm/decide-job.js";
import { runOrg } from "../helpers/org-cli.js";
import { pollUntil } from "../helpers/poll.js";
import { CLUSTER_START_MS, MULTI_NODE, startCluster, stopCluster } from "./cluster.js";
import { endFirstJob, heldYaml, type StatusJson, TIMED_NODE, type TimedEnd, timedYaml } from "./multi-node-orgs.js";
import { poolOrgYaml } from "./pool-org.js";
import { createTestOrg, teardownOrg, type TestOrg, tmux } from "../helpers/test-org/index.js";

// Researchers that submit forever, no GPU of their own: each verify run is a one-GPU job wherever Slurm puts it.
const poolYaml = poolOrgYaml(4, 8);
const TRAIN = 'echo "slurm node=$SLURMD_NODENAME gpu=$CUDA_VISIBLE_DEVICES"; sleep 2; ' +
  'echo "val_bpb: $(head -n 1 value.txt)"\n';

let slurm: SlurmPort;
let org: TestOrg | undefined;
let timed: TestOrg | undefined;
let timedEnd: Promise<TimedEnd> | undefined;

let gate: string | undefined;

afterEach(() => {
  teardownOrg(org);
  org = undefined;
  if (gate) rmSync(gate, { recursive: true, force: true });
  gate = undefined;
});

describe("an org across the nodes of a real single-host cluster", { tags: ["slurm"] }, () => {
  beforeAll(async () => {
    // The shared cluster first: munged is then its, and stopping this suite's cluster leaves it to the others.
    await startCluster();
    await startCluster(MULTI_NODE);
    slurm = createSlurm();
    timed = createTestOrg({ yaml: timedYaml });
    const up = runOrg(["up", "--no-attach"], { cwd: timed.dir });
    expect(up.code, up.stderr).toBe(0);
    timedEnd = endFirstJob(timed.dir);
    // Awaited by its test; a failure before then is that test's to report.
    timedEnd.catch(() => undefined);
  }, CLUSTER_START_MS);

  afterAll(async () => {
    teardownOrg(timed);
    await stopCluster(MULTI_NODE);
  }, 30_000);

  const liveJobs = async (name: string) => {
    const listed = await slurm.listJobs();
    if (!listed.ok) throw new Error(listed.error);
    return [...jobsByAgent(listed.value, name).values()].flat().filter((job) => job.kind !== "ended");
  };

  test("16 researchers on 4 nodes: each job on a node, its pane on the GPU Slurm gave it, " +
    "status names node and job; down leaves no job", async () => {
    org = createTestOrg({ yaml: heldYaml(16) });
    const { dir, socket, name } = org;
    const up = runOrg(["up", "--no-attach"], { cwd: dir });
    expect(up.code, up.stderr).toBe(0);
    const status = () => JSON.parse(runOrg(["status", "--json"], { cwd: dir }).stdout) as StatusJson;
    const settled = await pollUntil(() => {
      const now = status();
      const placed = now.agents.every((agent) => agent.state === "running" && agent.gpu !== null && agent.job?.node);
      return placed ? now : undefined;
    }, {
      timeoutMs: 40_000,
      what: "16 running, each on a node and a GPU",
      explain: () => runOrg(["status"], { cwd: dir }).stdout,
    });
    const places = settled.agents.map((agent) => `${agent.job!.node}:${agent.gpu}`);
    expect(new Set(places).size).toBe(16);
    const nodes = new Set(settled.agents.map((agent) => agent.job!.node));
    expect(nodes).toEqual(new Set(["node1", "node2", "node3", "node4"]));
    // Each pane is its job's step: the node, GPU and job it reports are the ones status shows.
    const panes = tmux(socket, ["list-panes", "-s", "-t", `org-${name}`, "-F", "#{pane_id} #{@org_agent}"]).out
      .trim().split("\n").map((line) => line.split(" "));
    for (const agent of settled.agents) {
      const pane = panes.find(([, label]) => label === agent.name)![0]!;
      const expected = `at node=${agent.job!.node} gpu=${agent.gpu} job=${agent.job!.id}`;
      const shown = () => tmux(socket, ["capture-pane", "-p", "-t", pane]).out.split("\n").includes(expected);
      await pollUntil(shown, { what: `${agent.name}: ${expected}` });
    }
    const table = runOrg(["status"], { cwd: dir }).stdout;
    for (const agent of settled.agents) {
      expect(table).toMatch(new RegExp(`${agent.name} .* job ${agent.job!.id} on ${agent.job!.node}`));
    }

    const down = runOrg(["down"], { cwd: dir });
    expect(down.stdout).toContain(`cancelled 16 Slurm jobs of org ${name}`);
    const noneLive = async () => (await liveJobs(name)).length === 0;
    await pollUntil(noneLive, { timeoutMs: 20_000, what: "no live job of ours" });
  }, 90_000);

  test("a node taken down: its agents come back on other nodes in their jobs, requeued; " +
    "status and log.md name the move", async () => {
    org = createTestOrg({ yaml: heldYaml(8) });
    const { dir, socket, name } = org;
    const up = runOrg(["up", "--no-attach"], { cwd: dir });
    expect(up.code, up.stderr).toBe(0);
    const status = () => JSON.parse(runOrg(["status", "--json"], { cwd: dir }).stdout) as StatusJson;
    const explain = () =>
      `${runOrg(["status"], { cwd: dir }).stdout}\n${readFileSync(join(dir, "state", "log.md"), "utf8").slice(-2000)}`;
    const before = await pollUntil(() => {
      const now = status();
      return now.agents.every((agent) => agent.state === "running" && agent.job?.node) ? now : undefined;
    }, { timeoutMs: 30_000, what: "8 running, each on a node", explain });
    const victim = before.agents.map((agent) => agent.job!.node!).find((node) => node !== TIMED_NODE)!;
    const moved = before.agents.filter((agent) => agent.job!.node === victim);
    const scontrol = (state: string) => processRunner.run(
      ["scontrol", "update", `NodeName=${victim}`, `State=${state}`, "Reason=org-test"],
      { timeoutMs: 10_000 },
    );
    expect((await scontrol("DOWN")).exitCode).toBe(0);
    try {
      const after = await pollUntil(() => {
        const now = status();
        const back = now.agents.filter((agent) => moved.some((gone) => gone.name === agent.name));
        const offVictim = back.every((agent) =>
          agent.state === "running" && agent.job?.node && agent.job.node !== victim);
        return offVictim ? now : undefined;
      }, { timeoutMs: 30_000, what: `${moved.map((agent) => agent.name).join(", ")} running off ${victim}`, explain });
      const log = readFileSync(join(dir, "state", "log.md"), "utf8");
      const panes = tmux(socket, ["list-panes", "-s", "-t", `org-${name}`, "-F", "#{pane_id} #{@org_agent}"]).out
      .trim().split("\n").map((line) => line.split(" "));
      for (const gone of moved) {
        const now = after.agents.find((agent) => agent.name === gone.name)!;
        expect(log).toContain(`slurm | ${gone.name} moved from ${victim} to ${now.job!.node}`);
        const pane = panes.find(([, label]) => label === gone.name)![0]!;
        const expected = `at node=${now.job!.node} gpu=${now.gpu} job=${now.job!.id}`;
        const shown = () => tmux(socket, ["capture-pane", "-p", "-t", pane]).out.split("\n").includes(expected);
        await pollUntil(shown, { what: `${gone.name}: ${expected}` });
      }
      // The others never moved, and every agent has one live job.
      for (const stayed of after.agents.filter((agent) => !moved.some((gone) => gone.name === agent.name))) {
        expect(stayed.job).toEqual(before.agents.find((agent) => agent.name === stayed.name)!.job);
      }
      expect(await liveJobs(name)).toHaveLength(8);
    } finally {
      await scontrol("RESUME");
    }
  }, 90_000);

  test("a verify run's node taken down mid-run: log.md names the node, " +
    "the experiment runs again and is judged once", async () => {
    // Every run waits for the gate: the run found under way is surely still under way when its node goes down.
    gate = mkdtempSync(join(tmpdir(), "org-slurm-gate-"));
    const train = TRAIN.replace("sleep 2", `until [ -e ${gate}/open ]; do sleep 0.1; done`);
    // A limit no held run reaches before the gate opens: Slurm's TIMEOUT would be a crash verdict.
    org = createTestOrg({ yaml: (name) => poolYaml(name).replace("timeout: 1m", "timeout: 5m"), files: {
      "train.sh": train,
      "value.txt": "1.000\n",
    } });
    const { dir } = org;
    const state = join(dir, "state");
    const up = runOrg(["up", "--no-attach"], { cwd: dir });
    expect(up.code, up.stderr).toBe(0);
    const runs = join(state, "runs");
    const readLog = (file: string) => readFileSync(join(runs, file), "utf8");
    const logMd = () => readFileSync(join(state, "log.md"), "utf8");
    const explain = () => `${runOrg(["status"], { cwd: dir }).stdout}\n${logMd().slice(-3000)}`;
    // A run under way: placed on a node, held at the gate.
    const victim = await pollUntil(() => {
      const logs = existsSync(runs) ? readdirSync(runs).filter((file) => file.endsWith(".log")) : [];
      return logs.map((file) => /slurm node=(node\d+)/.exec(readLog(file))?.[1])
        .find((node) => node && node !== TIMED_NODE);
    }, { timeoutMs: 30_000, what: "a verify run under way", explain });
    const scontrol = (stateName: string) => processRunner.run(
      ["scontrol", "update", `NodeName=${victim}`, `State=${stateName}`, "Reason=org-test"],
      { timeoutMs: 10_000 },
    );
    const downAt = Date.now();
    expect((await scontrol("DOWN")).exitCode).toBe(0);
    try {
      const named = new RegExp(`slurm \\| verify run \\S+ of \\S+: its node ${victim} went down`);
      await pollUntil(() => named.test(logMd()), { timeoutMs: 60_000, what: "log.md naming the node", explain });
      console.log(`log.md named ${victim} ${Date.now() - downAt} ms after it went down`);
    } finally {
      await scontrol("RESUME");
    }
    writeFileSync(join(gate, "open"), "");
    const results = join(state, "results.tsv");
    const rows = () => (existsSync(results)
      ? readFileSync(results, "utf8").trim().split("\n").slice(1).map((line) => line.split("\t"))
      : []);
    const judged = await pollUntil(() => (rows().length >= 6 ? rows() : undefined), {
      timeoutMs: 40_000,
      what: "6 verdicts",
      explain,
    });
    expect(judged.filter((row) => row[3] !== "keep" && row[3] !== "discard"), JSON.stringify(judged)).toEqual([]);
    // Judged once: one row per agent and commit.
    expect(new Set(judged.map((row) => `${row[5]} ${row[0]}`)).size, JSON.stringify(judged)).toBe(judged.length);
    expect(runOrg(["down"], { cwd: dir }).code).toBe(0);
  }, 150_000);

  test("a job at its time limit ends TIMEOUT: the agent is back in a new job, log.md says why, " +
    "its conversation resumed", async () => {
    const { dir, name } = timed!;
    const { job: first, sessionId, starts } = await timedEnd!;
    const logMd = () => readFileSync(join(dir, "state", "log.md"), "utf8");
    const entry = new RegExp(
      `slurm \\| researcher-1 resubmitted\n+` +
      `job (\\d+) ended TIMEOUT[^\n]*: submitted job (\\d+)`,
    );
    // slurmctld's next check of the limits: within 30 s of the suite's start.
    const [, ended, next] = await pollUntil(() => entry.exec(logMd()), {
      timeoutMs: 90_000,
      intervalMs: 500,
      what: "log.md: researcher-1 resubmitted after TIMEOUT",
      explain: () => logMd().slice(-2000),
    });
    const listed = await slurm.listJobs();
    if (!listed.ok) throw new Error(listed.error);
    const jobs = jobsByAgent(listed.value, name).get("researcher-1") ?? [];
    expect(ended).toBe(first);
    expect(jobs.find((job) => job.id === ended)).toMatchObject({ kind: "ended", state: "TIMEOUT" });
    expect(jobs.find((job) => job.id === next)?.kind).not.toBe("ended");
    // The same conversation, started fresh in the old job, resumed in the new one.
    await pollUntil(() => starts().includes(`resumed ${sessionId} in job ${next}`), {
      timeoutMs: 30_000,
      what: `resumed in job ${next}`,
      explain: starts,
    });
    expect(starts()).toBe(`fresh ${sessionId} in job ${ended}\nresumed ${sessionId} in job ${next}\n`);
    // Its job leaves node4 to the pool test, whose runs Slurm spreads over every node by load.
    teardownOrg(timed);
    timed = undefined;
  }, 150_000);
  test("verify.gpus: pool: the runs spread over every node's GPUs; down leaves no job", async () => {
    org = createTestOrg({ yaml: poolYaml, files: { "train.sh": TRAIN, "value.txt": "1.000\n" } });
    const { dir, name } = org;
    const state = join(dir, "state");
    const up = runOrg(["up", "--no-attach"], { cwd: dir });
    expect(up.code, up.stderr).toBe(0);
    // Where each run so far ran, as its log says: "node3:1".
    const placed = () => {
      const runs = join(state, "runs");
      const logs = existsSync(runs) ? readdirSync(runs).filter((file) => file.endsWith(".log")) : [];
      return logs.flatMap((file) => {
        const match = /slurm node=(node\d+) gpu=(\d+)/.exec(readFileSync(join(runs, file), "utf8"));
        return match ? [`${match[1]}:${match[2]}`] : [];
      });
    };
    const runs = await pollUntil(() => {
      const now = placed();
      return new Set(now.map((place) => place.split(":")[0])).size === 4 ? now : undefined;
    }, {
      timeoutMs: 40_000,
      what: "runs on all 4 nodes",
      explain: () => `${placed().join(" ")}\n${runOrg(["status"], { cwd: dir }).stdout}`,
    });
    for (const place of runs) expect(place).toMatch(/^node[1-4]:[0-3]$/);

    const down = runOrg(["down"], { cwd: dir });
    expect(down.code, down.stderr).toBe(0);
    const noneLive = async () => (await liveJobs(name)).length === 0;
    await pollUntil(noneLive, { timeoutMs: 20_000, what: "no live job of ours" });
  }, 90_000);
});
