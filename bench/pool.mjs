// GPU utilization with simulated agents (no LLM) whose thinking takes as long as a run, on 4 fake GPUs (issue "GPUs
// never idle"): verify.gpus own + synchronous submit (today) next to pool + sync and pool + `org submit --no-wait`.
// Utilization is busy GPU-seconds ÷ (window × GPUs) from state/gpu-runs.jsonl over exactly the window, which opens once
// every agent's baseline has its row; org status --json's figure (since org up, startup and baselines included) is
// beside it.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import { ORG, ROOT, createRepo, median, percentile, removeDir } from "./lib.mjs";

const AGENT = join(ROOT, "bench", "pool-agent");
// test/fixtures/gpu/nvidia-smi lists four idle H100s: first on
// PATH, `gpus: auto` finds them with no GPU on the machine.
const FAKE_GPUS = join(ROOT, "test", "fixtures", "gpu");
const GPUS = 4;

function poolYaml(name, opts) {
  return [
    `name: ${name}`, "gpus: auto",
    "runtimes:", `  sim: { command: ["${AGENT}"], restart: always, env: { BENCH_SUBMIT: ${opts.submit}, BENCH_THINK: ` +
      `"${opts.think}" } }`,
    "roles:", `  r: { prompt: prompt.md, runtime: sim, count: ${opts.agents}, gpu: true, edits: [knobs] }`,
    // The run: R seconds of "training", then the metric from the numbers the agents write (the smallest wins).
    "verify:", `  command: [sh, -c, 'sleep ${opts.run}; printf "val_loss: ` +
      `%s\\n" "$(cat knobs/*.txt | sort -g | head -n 1)"']`,
    "  metric: { name: val_loss, pattern: '^val_loss:\\s*([-+0-9.eE]+)' }", "  timeout: 1m",
    `  gpus: ${opts.mode}`, `  queue_per_agent: ${opts.queue}`,
    // One run per experiment: no baseline repeats, no confirmation runs.
    "  repeats: 1", "  keep: { k: 2, min_delta: 0, confirm: 0 }", "",
  ].join("\n");
}

function orgIn(dir, args) {
  const result = spawnSync(process.execPath, [ORG, ...args], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, PATH: `${FAKE_GPUS}:${process.env.PATH}`, TMUX: "", ORG_ROOT: "" },
  });
  if (result.status !== 0)
    throw new Error(`org ${args.join(" ")} failed (${result.status}): ${result.stderr}${result.stdout}`);
  return result.stdout;
}

function readRows(dir) {
  let text;
  try {
    text = readFileSync(join(dir, "state", "results.tsv"), "utf8");
  } catch {
    return [];
  }
  return text.trim().split("\n").slice(1).map((line) => {
    const fields = line.split("\t");
    return { commit: fields[0], status: fields[3], description: fields[4], agent: fields[5], gpu: fields[6],
      seconds: Number(fields[7]), time: Date.parse(fields[8]) };
  });
}

// Ended runs as they are; a start with no end yet is busy up to the window's end.
function readRuns(text, until) {
  const runs = new Map();
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const record = JSON.parse(line);
    if (record.end || !runs.has(record.id)) runs.set(record.id, record);
  }
  const when = (run) => ({ start: Date.parse(run.start), end: run.end ? Date.parse(run.end) : until });
  return [...runs.values()].map((run) => ({ ...run, ...when(run) }));
}

function readVerdicts(dir) {
  const folder = join(dir, "state", "verdicts");
  let names;
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith(".json"))
    .map((name) => JSON.parse(readFileSync(join(folder, name), "utf8")));
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(check, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

const round = (value, digits = 1) =>
  value === undefined || value === null || Number.isNaN(value) ? null : Number(value.toFixed(digits));

function spread(values) {
  if (values.length === 0) return { median: null, p95: null, max: null, n: 0 };
  return { median: round(median(values)), p95: round(percentile(values, 95)), max: round(Math.max(...values)),
    n: values.length };
}

/** One configuration: up, wait for every baseline, measure `window` seconds, down. */
async function measure(label, opts) {
  const name = `bp${opts.mode[0]}${opts.submit[0]}${process.pid}`;
  const dir = createRepo({ "prompt.md": "x\n", "knobs/base.txt": "1.0\n", "org.yaml": poolYaml(name, opts) });
  try {
    orgIn(dir, ["up", "--no-attach"]);
    const baselines = () => readRows(dir).filter((row) => row.description === "baseline").length;
    await waitFor(() => baselines() >= opts.agents, 120_000, `${opts.agents} baselines`);
    const from = Date.now();
    process.stderr.write(`pool ${label}: baselines done, measuring ${opts.window}s\n`);
    const load = loadavg();
    await sleep(opts.window * 1000);
    const until = Date.now();
    // Everything read at the window's end, before org down ends the runs in flight.
    const runsText = readFileSync(join(dir, "state", "gpu-runs.jsonl"), "utf8");
    const rows = readRows(dir);
    const verdicts = readVerdicts(dir);
    const status = JSON.parse(orgIn(dir, ["status", "--json"]));
    const agentLog = readAgentLogs(dir, status.agents.map((agent) => agent.name));
    return summarize(label, opts, { load, from, until, runs: readRuns(runsText, until), rows, verdicts, status,
      agentLog });
  } finally {
    try { orgIn(dir, ["down"]); } catch { /* already down */ }
    removeDir(dir);
  }
}

function readAgentLogs(dir, agents) {
  const lines = [];
  for (const agent of agents) {
    try {
      for (const line of readFileSync(join(dir, "state", "agents", agent, "own", "bench-agent.log"), "utf8")
        .trim()
        .split("\n")) {
        const [at, rc, , ...rest] = line.split(" ");
        lines.push({ agent, at: Number(at) * 1000, rc: Number(rc), text: rest.join(" ") });
      }
    } catch { /* no submit yet */ }
  }
  return lines;
}

function summarize(label, opts, data) {
  const { from, until, runs, rows, verdicts, status, agentLog } = data;
  const windowMs = until - from;
  const slots = [...new Set(runs.map((run) => run.slot))];
  // Busy time per GPU, clipped to the window; two runs on one GPU at once count once.
  let busyMs = 0;
  const turnarounds = [];
  for (const slot of slots) {
    const mine = runs.filter((run) => run.slot === slot).sort((a, b) => a.start - b.start);
    let reached = from;
    for (const run of mine) {
      const start = Math.max(run.start, reached);
      const end = Math.min(run.end, until);
      if (end > start) busyMs += end - start;
      reached = Math.max(reached, Math.min(run.end, until));
    }
    // A GPU's turnaround: one run's end to the next run's start on it, both inside the window.
    for (let index = 1; index < mine.length; index++) {
      if (mine[index - 1].end >= from && mine[index].start <= until)
        turnarounds.push(mine[index].start - mine[index - 1].end);
    }
  }
  const inWindow = rows.filter((row) => row.description !== "baseline" && row.time > from && row.time <= until);
  const candidateVerdicts = new Map(
    verdicts
      .filter((verdict) => verdict.outcome?.request?.kind === "candidate")
      .map((verdict) => [`${verdict.outcome.request.agent}\t${verdict.outcome.request.description}`, verdict]),
  );
  // Every judged candidate with its run (an agent's runs are one at a time: its last one ended before the row) and the
  // times it waited on: submitted, the agent's previous row written (its runs go one at a time), its GPU's previous run
  // ended.
  const experiments = [];
  for (const row of rows.filter((candidate) => candidate.description !== "baseline")) {
    const verdict = candidateVerdicts.get(`${row.agent}\t${row.description}`);
    const run = runs
      .filter((candidate) => candidate.agent === row.agent && candidate.end <= row.time)
      .sort((a, b) => b.end - a.end)[0];
    if (!verdict || !run) continue;
    const submitted = Date.parse(verdict.outcome.request.submittedAt);
    const previousRow = Math.max(
      0,
      ...rows.filter((other) => other.agent === row.agent && other.time < row.time).map((other) => other.time),
    );
    const previousOnGpu = Math.max(
      0,
      ...runs.filter((other) => other.slot === run.slot && other.end <= run.start).map((other) => other.end),
    );
    experiments.push({ row, run, submitted, previousRow, previousOnGpu, runSeconds: verdict.outcome.runSeconds });
  }
  // Per experiment judged in the window. The harness overhead as bench/verifier.mjs measures it: row time − submit time
  // − run time (with a queue it holds the wait behind other runs too). Split, it is dispatch (run start − the moment it
  // could start) plus record (row time − run end).
  const judged = experiments.filter((experiment) => experiment.row.time > from && experiment.row.time <= until);
  const overhead = judged.map((e) => e.row.time - e.submitted - e.runSeconds * 1000);
  const dispatch = judged.map((e) => e.run.start - Math.max(e.submitted, e.previousRow, e.previousOnGpu));
  const record = judged.map((e) => e.row.time - e.run.end);
  const queueWait = judged.map((e) => e.run.start - e.submitted);
  // Each time a GPU freed in the window: was another experiment ready then (submitted, its agent's previous row
  // written)? If so the GPU's idle time until its next run is the harness's; if not, the agents had nothing queued
  // (think time).
  const frees = runs.filter((run) => run.end >= from && run.end < until);
  const withWork = frees.filter((free) =>
    experiments.some((e) => e.submitted <= free.end && e.previousRow <= free.end && e.run.start > free.end),
  );
  const scheduling = dispatch.map((value, index) => value + record[index]);
  const submits = agentLog.filter((line) => line.at > from && line.at <= until);
  const utilization = busyMs / (windowMs * GPUS);
  const gpuHours = (windowMs / 3_600_000) * GPUS;
  const meanTurnaroundS =
    turnarounds.length > 0 ? turnarounds.reduce((sum, value) => sum + value, 0) / turnarounds.length / 1000 : undefined;
  const result = {
    config: label, verify_gpus: opts.mode, submit: opts.submit, agents: opts.agents, gpus: GPUS,
    run_s: opts.run, think_s: opts.think, queue_per_agent: opts.queue, window_s: round(windowMs / 1000),
    utilization: round(utilization, 3),
    gpus_seen: slots.length,
    experiments: inWindow.length,
    experiments_per_gpu_hour: round(inWindow.length / gpuHours, 0),
    ideal_per_gpu_hour: round(3600 / opts.run, 0),
    verdicts: Object.fromEntries(["keep", "discard", "crash", "reject"]
      .map((status) => [status, inWindow.filter((row) => row.status === status).length])),
    // bench/verifier.mjs's figure: commit → row minus the run's own time (queue wait included).
    commit_to_row_minus_run_ms: spread(overhead),
    // The harness's own share, queue wait excluded: dispatch + record.
    scheduling_overhead_ms: spread(scheduling),
    dispatch_ms: spread(dispatch),
    record_ms: spread(record),
    queue_wait_ms: spread(queueWait),
    gpu_turnaround_ms: spread(turnarounds),
    // Share of the moments a GPU freed when an experiment was ready to take it: below 1, the agents' queue ran dry.
    gpu_free_with_work_ready: frees.length > 0 ? round(withWork.length / frees.length, 2) : null,
    submits: {
      ok: submits.filter((line) => line.rc === 0).length,
      queue_full: submits.filter((line) => /queue_per_agent/.test(line.text)).length,
      other_refusals: submits.filter((line) => line.rc !== 0 && !/queue_per_agent/.test(line.text)).length,
    },
    // With work always ready, a GPU idles only for the turnaround: what that fixed cost leaves at a 5-minute run.
    ...(opts.submit === "async" && meanTurnaroundS !== undefined
      ? { projected_utilization_300s_run: round(300 / (300 + meanTurnaroundS), 3) }
      : {}),
    load_average: { start: round(data.load[0], 1), end: round(loadavg()[0], 1) },
    status_utilization: status.utilization && {
      overall: round(status.utilization.overall, 3),
      lastHour: round(status.utilization.lastHour, 3),
      wallSeconds: round(status.utilization.wallSeconds),
      gpus: status.utilization.gpus,
    },
  };
  const refusals = submits
    .filter((line) => line.rc !== 0 && !/queue_per_agent/.test(line.text))
    .map((line) => line.text);
  if (refusals.length > 0) result.other_refusal_examples = [...new Set(refusals)].slice(0, 3);
  process.stderr.write(
    `pool ${label}: ${opts.agents} agents on ${GPUS} GPUs, utilization ${(utilization * 100).toFixed(1)}% over ` +
      `${result.window_s}s, ${result.experiments} experiments (${result.experiments_per_gpu_hour}/GPU-hour), ` +
      `scheduling overhead median ${result.scheduling_overhead_ms.median} ms\n`,
  );
  return result;
}

/**
 * Three configurations on 4 fake GPUs, each measured over the same window after every baseline:
 * own + sync (4 agents: own mode leases one GPU per GPU agent), pool + sync (8 agents), pool + async (8 agents).
 * BENCH_POOL_WINDOW and BENCH_POOL_RUN (seconds) override the window and the run time; thinking takes as long as a run.
 */
export async function benchPool(
  window = Number(process.env.BENCH_POOL_WINDOW ?? 60),
  run = Number(process.env.BENCH_POOL_RUN ?? 5),
) {
  const common = { run, think: run, window, queue: 2 };
  // BENCH_POOL_ONLY=pool+async measures that configuration alone (two builds side by side under the same load).
  const only = process.env.BENCH_POOL_ONLY;
  const pick = (label, opts) => (!only || only === label ? measure(label, opts) : undefined);
  const own = await pick("own+sync", { ...common, mode: "own", submit: "sync", agents: GPUS });
  const poolSync = await pick("pool+sync", { ...common, mode: "pool", submit: "sync", agents: 2 * GPUS });
  const poolAsync = await pick("pool+async", { ...common, mode: "pool", submit: "async", agents: 2 * GPUS });
  return {
    note:
      `4 fake GPUs (test/fixtures/gpu/nvidia-smi); verify run ${run}s, think ${run}s; ` +
      `own mode leases one GPU per GPU agent, so it runs 4 agents, pool runs 8; ` +
      `utilization from state/gpu-runs.jsonl over exactly the window (opened once every baseline has its row)`,
    configs: [own, poolSync, poolAsync].filter(Boolean),
    overhead_async_vs_today: {
      scheduling_overhead_ms: {
        "own+sync": own?.scheduling_overhead_ms,
        "pool+async": poolAsync?.scheduling_overhead_ms,
      },
      commit_to_row_minus_run_ms: {
        "own+sync": own?.commit_to_row_minus_run_ms,
        "pool+async": poolAsync?.commit_to_row_minus_run_ms,
      },
    },
  };
}
