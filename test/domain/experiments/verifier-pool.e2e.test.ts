// verify.gpus: pool on the verifier's real loop and git: agents share fake GPUs, one run per GPU, whatever fails when.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { createVerifierPort } from "../../../src/adapters/verifier/port.js";
import { VerifierLoop } from "../../../src/daemon/verifier/loop.js";
import { ConfigSchema } from "../../../src/domain/config/schema.js";
import type { ExperimentRequest } from "../../../src/domain/experiments/request.js";
import type { VerifierPort } from "../../../src/domain/experiments/verifier-port.js";
import type { Gpu } from "../../../src/domain/lifecycle/select-gpus.js";
import type { GpuProbe } from "../../../src/domain/ports.js";
import type { OrgRecord } from "../../../src/domain/state.js";
import { pollUntil } from "../../helpers/poll.js";
import { createRepo, git, makeTempDir, removeDir } from "../../helpers/temp-repo.js";
import { readResultRows } from "../../helpers/test-org/index.js";

// Each run notes its start and end (agent, commit, CUDA_VISIBLE_DEVICES, ns); with $marks.hold it waits for
// $marks.gone, after which a run on GPU 1 fails as its GPU would.
const SCORE = `marks="$1"
echo "start $ORG_AGENT $ORG_COMMIT $CUDA_VISIBLE_DEVICES $(date +%s%N)" >> "$marks"
sleep 0.4
while [ -e "$marks.hold" ] && [ ! -e "$marks.gone" ]; do sleep 0.05; done
if [ -e "$marks.gone" ] && [ "$CUDA_VISIBLE_DEVICES" = "1" ]; then
  echo "CUDA error: unspecified launch failure"; exit 1
fi
echo "end $ORG_AGENT $ORG_COMMIT $CUDA_VISIBLE_DEVICES $(date +%s%N)" >> "$marks"
echo "score: $(cat value.txt)"
`;

interface Mark { kind: "start" | "end"; agent: string; commit: string; gpu: string; at: bigint }

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) removeDir(dir);
  dirs = [];
});

/** A research repo scored by value.txt, `count` agents with worktrees and no GPU of their own, and a pool of `pool`. */
function createPoolOrg(count: number, pool: number[]) {
  const root = createRepo({ "score.sh": SCORE, "value.txt": "1.0\n" });
  const outside = makeTempDir("org-pool-marks-");
  dirs.push(root, outside);
  const marks = join(outside, "marks");
  const agents = Array.from({ length: count }, (_, index) => `r-${index + 1}`);
  for (const agent of agents)
    git(root, ["worktree", "add", "-q", "-b", `org/t/${agent}`, join(root, "worktrees", agent), "main"]);
  const record: OrgRecord = {
    version: 1, name: "t", root, repo: root, base: "main", baseCommit: git(root, ["rev-parse", "main"]).trim(),
    socket: "none", session: "none", cpuMode: false, pool,
    agents: agents.map((name) => ({
      name, role: "researcher", runtime: "idle", branch: `org/t/${name}`, worktree: join(root, "worktrees", name),
      gpu: null,
    })),
    upAt: new Date().toISOString(),
  };
  const config = ConfigSchema.parse({
    roles: { researcher: { prompt: "p.md", runtime: "idle", count, gpu: true, edits: ["value.txt"] } },
    verify: {
      command: ["sh", "score.sh", marks],
      metric: { name: "score", pattern: "^score: ([0-9.]+)" },
      timeout: "30s", parallel: 1, repeats: 1, gpus: "pool",
      keep: { k: 0, min_delta: 0, confirm: 0 },
    },
  });
  const state = join(root, "state");
  mkdirSync(join(state, "queue"), { recursive: true });
  const port = createVerifierPort({ repo: root, state });
  const listed: Gpu[] = pool.map((index) => ({
    index, uuid: `GPU-${index}`, name: "H100", memoryUsedMb: 1, memoryTotalMb: 81559,
  }));
  // nvidia-smi as the fake GPUs stand: GPU 1 leaves it together with the marker that makes its runs fail.
  const probe: GpuProbe = {
    probe: async () => listed.filter((gpu) => gpu.index !== 1 || !existsSync(`${marks}.gone`)),
  };
  const log: string[] = [];
  const daemon = (hands: VerifierPort = port) =>
    new VerifierLoop(record, config, hands, (line) => log.push(line), probe);
  // Values differ by agent: the same change on the same base would otherwise be the same commit for every agent.
  const commit = (agent: string, value: string) => {
    const worktree = join(root, "worktrees", agent);
    writeFileSync(join(worktree, "value.txt"), `${value}${agent.slice(2)}\n`);
    git(worktree, ["commit", "-qam", `value ${value}`]);
    return git(worktree, ["rev-parse", "HEAD"]).trim();
  };
  let submits = 0;
  const submit = (agent: string, commit: string): ExperimentRequest => {
    const at = new Date(Date.now() + submits++);
    const request: ExperimentRequest = {
      id: `${at.toISOString().replace(/[:.]/g, "-")}-${agent}-${commit.slice(0, 7)}`,
      agent,
      commit,
      description: `value of ${commit.slice(0, 7)}`,
      kind: "candidate",
      submittedAt: at.toISOString(),
    };
    writeFileSync(join(state, "queue", `${request.id}.json`), JSON.stringify(request));
    return request;
  };
  const readMarks = (): Mark[] =>
    (existsSync(marks) ? readFileSync(marks, "utf8") : "")
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const [kind, agent, commit, gpu, at] = line.split(" ");
        return { kind: kind as Mark["kind"], agent: agent!, commit: commit!, gpu: gpu!, at: BigInt(at!) };
      });
  /** Runs started and not ended: going now, or killed. */
  const going = () => readMarks().reduce((count, mark) => count + (mark.kind === "start" ? 1 : -1), 0);
  const rows = () => readResultRows(state);
  const verdictOf = (request: ExperimentRequest) =>
    JSON.parse(readFileSync(join(state, "verdicts", `${request.id}.json`), "utf8")) as {
      outcome: { verdict: { kind: string; reason: string } };
    };
  const queued = () => readdirSync(join(state, "queue")).filter((name) => name.endsWith(".json"));
  /** Tick and wait for the runs until every agent has its baseline and the queue is empty. */
  const settle = async (loop: VerifierLoop) => pollUntil(async () => {
    await loop.tick(new Date());
    await loop.drain();
    return agents.every((agent) => existsSync(join(state, "agents", agent, "ledger.json"))) && queued().length === 0;
  }, { what: "an empty queue", timeoutMs: 90_000 });
  return { root, record, state, marks, agents, port, log, daemon, commit, submit, readMarks, going, rows, verdictOf,
    queued, settle };
}

/** Per GPU, the runs' [start, end] in ns: a start with no end (a killed run) is left out. */
function intervalsByGpu(marks: Mark[]): Map<string, [bigint, bigint][]> {
  const byGpu = new Map<string, [bigint, bigint][]>();
  const open = new Map<string, bigint>();
  for (const mark of marks) {
    const key = `${mark.agent} ${mark.commit} ${mark.gpu}`;
    if (mark.kind === "start") open.set(key, mark.at);
    else byGpu.set(mark.gpu, [...(byGpu.get(mark.gpu) ?? []), [open.get(key)!, mark.at]]);
  }
  return byGpu;
}

function overlaps(intervals: [bigint, bigint][]): number {
  const sorted = [...intervals].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  return sorted.filter((interval, index) => index > 0 && interval[0] < sorted[index - 1]![1]).length;
}

describe("the verifier with a GPU pool", () => {
  test("3 agents on 2 GPUs: every GPU used, never two runs on one, " +
    "each agent's runs in submit order, and each row names its run's GPU", async () => {
    const org = createPoolOrg(3, [0, 1]);
    const loop = org.daemon();
    // The first look queues every agent's baseline (and starts two); the agents submit while they run.
    await loop.tick(new Date());
    const submitted = new Map(org.agents.map((agent) => [agent, [org.commit(agent, "0.9"), org.commit(agent, "0.8")]]));
    for (const [agent, [first, second]] of submitted) {
      org.submit(agent, first!);
      org.submit(agent, second!);
    }
    await org.settle(loop);
    const marks = org.readMarks();
    const byGpu = intervalsByGpu(marks);
    expect([...byGpu.keys()].sort()).toEqual(["0", "1"]);
    expect([...byGpu.values()].map(overlaps)).toEqual([0, 0]);
    expect([...byGpu.values()].flat()).toHaveLength(9);
    // Both GPUs worked at once: the pool is shared, not taken in turns.
    const all = [...byGpu.values()].flat();
    expect(all.some(([start, end]) => all.some(([otherStart]) => otherStart > start && otherStart < end))).toBe(true);
    for (const [agent, [first, second]] of submitted) {
      const mine = marks.filter((mark) => mark.agent === agent);
      expect(mine.map((mark) => `${mark.kind} ${mark.commit}`)).toEqual([
        `start ${org.record.baseCommit}`,
        `end ${org.record.baseCommit}`,
        `start ${first}`,
        `end ${first}`,
        `start ${second}`,
        `end ${second}`,
      ]);
    }
    const gpuOf = new Map(
      marks.filter((mark) => mark.kind === "end").map((mark) => [`${mark.agent} ${mark.commit.slice(0, 7)}`, mark.gpu]),
    );
    const rows = org.rows();
    expect(rows).toHaveLength(9);
    for (const row of rows) expect(row[6]).toBe(gpuOf.get(`${row[5]} ${row[0]}`));
    expect(rows.map((row) => row[3])).toEqual(Array(9).fill("keep"));
  }, 120_000);

  test("a GPU gone from nvidia-smi mid-run: that run is a crash for it, " +
    "the GPU leaves the pool with a log line, the queue goes on on the other", async () => {
    const org = createPoolOrg(2, [0, 1]);
    const loop = org.daemon();
    await org.settle(loop);
    writeFileSync(`${org.marks}.hold`, "");
    const requests = org.agents.map((agent) => org.submit(agent, org.commit(agent, "0.9")));
    await pollUntil(async () => {
      await loop.tick(new Date());
      return org.going() === 2;
    }, { what: "a run on each GPU", timeoutMs: 30_000 });
    writeFileSync(`${org.marks}.gone`, "");
    await org.settle(loop);
    const verdicts = requests.map((request) => org.verdictOf(request).outcome.verdict);
    expect(verdicts.map((verdict) => verdict.kind).sort()).toEqual(["crash", "keep"]);
    const crashed = requests[verdicts.findIndex((verdict) => verdict.kind === "crash")]!;
    expect(verdicts.find((verdict) => verdict.kind === "crash")!.reason).toBe("crash: gpu 1 is gone from nvidia-smi");
    expect(readFileSync(join(org.state, "log.md"), "utf8")).toContain(
      "pool | gpu 1 left the pool\ngpu 1 is gone from nvidia-smi; runs go on on gpu 0\n",
    );
    expect(org.log).toContain("verifier: gpu 1 left the pool: gpu 1 is gone from nvidia-smi; runs go on on gpu 0");
    expect(readFileSync(join(org.state, "runs", `${crashed.id}.log`), "utf8")).toContain(
      "org: gpu 1 is gone from nvidia-smi\n",
    );
    // The agent whose run crashed tries again, and so does the other: both on GPU 0 now, one after the other.
    const before = org.readMarks().length;
    const again = org.agents.map((agent) => org.submit(agent, org.commit(agent, "0.7")));
    await org.settle(loop);
    expect(again.map((request) => org.verdictOf(request).outcome.verdict.kind)).toEqual(["keep", "keep"]);
    const after = org.readMarks().slice(before);
    expect(after.map((mark) => mark.gpu)).toEqual(["0", "0", "0", "0"]);
    expect(overlaps([...intervalsByGpu(after).values()].flat())).toBe(0);
    // A restarted daemon, org.json still listing GPU 1: it asks
    // nvidia-smi before its first run, so no run crashes on it.
    const restarted = org.daemon();
    const last = org.submit(org.agents[0]!, org.commit(org.agents[0]!, "0.6"));
    await org.settle(restarted);
    expect(org.verdictOf(last).outcome.verdict.kind).toBe("keep");
    expect(org.readMarks().at(-1)!.gpu).toBe("0");
    expect(readFileSync(join(org.state, "log.md"), "utf8").match(/pool \| gpu 1 left the pool/g)).toHaveLength(2);
  }, 120_000);

  test("a run that ends starts the next queued one on its GPU at once, with no tick in between", async () => {
    const org = createPoolOrg(2, [0]);
    const loop = org.daemon();
    await org.settle(loop);
    const requests = org.agents.map((agent) => org.submit(agent, org.commit(agent, "0.9")));
    // One look starts the first; the second may only start when the first ends, and no look follows.
    await loop.tick(new Date());
    await pollUntil(() => requests.every((request) => existsSync(join(org.state, "verdicts", `${request.id}.json`))), {
      what: "both verdicts without a second tick",
      timeoutMs: 60_000,
    });
    await loop.stop();
    expect(requests.map((request) => org.verdictOf(request).outcome.verdict.kind)).toEqual(["keep", "keep"]);
    expect(overlaps(intervalsByGpu(org.readMarks()).get("0")!)).toBe(0);
  }, 120_000);

  test("the daemon killed with runs going on both GPUs, twice: " +
    "after the restart every queued candidate is judged exactly once", async () => {
    const org = createPoolOrg(3, [0, 1]);
    await org.settle(org.daemon());
    const requests = org.agents.flatMap((agent) => [
      org.submit(agent, org.commit(agent, "0.9")),
      org.submit(agent, org.commit(agent, "0.8")),
    ]);
    // First kill: right after each of the two runs wrote its row, before its request was cleared.
    const rowThenDie: VerifierPort = { ...org.port, appendResult: async (header, line) => {
      await org.port.appendResult(header, line);
      throw new Error("killed after appendResult");
    } };
    const first = org.daemon(rowThenDie);
    await first.tick(new Date());
    await first.drain();
    expect(org.rows()).toHaveLength(3 + 2);
    expect(org.queued()).toHaveLength(6);
    // Second kill: mid-run on both GPUs (once the two rows are answered
    // from), so what it ran is ended and nothing of it recorded. Held, so no run ends before both are seen going.
    writeFileSync(`${org.marks}.hold`, "");
    const second = org.daemon();
    await pollUntil(async () => {
      await second.tick(new Date());
      return org.going() === 2;
    }, { what: "two runs going", timeoutMs: 30_000 });
    await second.stop();
    rmSync(`${org.marks}.hold`);
    expect(org.rows()).toHaveLength(5);
    await org.settle(org.daemon());
    const rows = org.rows();
    expect(rows).toHaveLength(3 + 6);
    for (const request of requests) {
      expect(rows.filter((row) => row[0] === request.commit.slice(0, 7))).toHaveLength(1);
      expect(org.verdictOf(request).outcome.verdict.kind).toBe("keep");
      expect(org.readMarks().filter((mark) => mark.kind === "end" && mark.commit === request.commit)).toHaveLength(1);
    }
    expect(org.queued()).toEqual([]);
  }, 120_000);
});
