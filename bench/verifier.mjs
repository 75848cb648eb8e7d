// Harness overhead per experiment (commit → results row, minus the verify command's own run time),
// and verifier throughput with 8 agents in CPU mode next to the ideal slots × time / run time.
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { FOREVER, ROOT, createRepo, downAndRemove, median, org, percentile } from "./lib.mjs";
import { startTrace, summarizeTrace } from "./trace.mjs";

function verifyYaml(name, opts) {
  return [
    `name: ${name}`, "gpus: none",
    "runtimes:", `  idle: { command: ["${FOREVER}"] }`, "  hill: { builtin: hillclimb, restart: always }",
    "roles:", `  a: { prompt: prompt.md, runtime: ${opts.runtime}, count: ${opts.count}, edits: [train.mjs] }`,
    "verify:",
    `  command: [sh, -c, '${opts.sleep ? `sleep ${opts.sleep}; ` : ""}` +
      `sed -n "s/^const VALUE = \\\\(.*\\\\);/val_loss: \\\\1/p" train.mjs']`,
    "  metric: { name: val_loss, pattern: '^val_loss:\\s*([-+0-9.eE]+)' }",
    "  timeout: 1m", `  parallel: ${opts.parallel}`,
    // One run per experiment: this measures the harness, not the noise rule (which runs more by design).
    "  repeats: 1", "  keep: { k: 2, min_delta: 0, confirm: 0 }", "",
  ].join("\n");
}

function rowsOf(dir) {
  const lines = readFileSync(join(dir, "state", "results.tsv"), "utf8").trim().split("\n").slice(1);
  return lines.map((line) => line.split("\t"));
}

async function waitFor(check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// The daemon's CPU (utime + stime, clock ticks of 10 ms), its reaped children's (cutime + cstime: every git process,
// and the runs), and the processes it spawned, as its heartbeat last wrote them.
function readDaemonUsage(dir) {
  const daemon = JSON.parse(readFileSync(join(dir, "state", "daemon.json"), "utf8"));
  const fields = readFileSync(`/proc/${daemon.pid}/stat`, "utf8").split(") ")[1].split(" ");
  return {
    ticks: Number(fields[11]) + Number(fields[12]), childTicks: Number(fields[13]) + Number(fields[14]),
    spawned: daemon.usage.spawned, at: daemon.heartbeatAt,
  };
}

export async function benchOverhead(experiments = Number(process.env.BENCH_OVERHEAD_EXPERIMENTS ?? 100)) {
  const dir = createRepo({
    "prompt.md": "x\n",
    "train.mjs": "const VALUE = 1.0;\n",
    "org.yaml": verifyYaml(`bo${process.pid}`, { runtime: "idle", count: 1, parallel: 1 }),
  });
  // BENCH_TRACE=1: where each request's milliseconds went, phase by phase (ORG_TRACE_TIMINGS in the daemon).
  const trace = startTrace(join(ROOT, "bench", "out", "overhead-trace.jsonl"));
  try {
    org(["up", "--no-attach"], dir);
    const worktree = join(dir, "worktrees", "a-1");
    await waitFor(() => { try { return rowsOf(dir).length >= 1; } catch { return false; } }, 30_000);
    const overheads = [];
    const before = readDaemonUsage(dir);
    for (let index = 0; index < experiments; index++) {
      // Alternating better and worse values exercise both the keep path and the discard-and-reset path.
      writeFileSync(
        join(worktree, "train.mjs"),
        `const VALUE = ${index % 2 === 0 ? 1 - index / 1000 : 2 + index / 1000};\n`,
      );
      const out = org(["submit", "-m", `try ${index}`], worktree);
      const verdict = JSON.parse(readFileSync(join(dir, "state", "verdicts", readVerdictName(dir, out)), "utf8"));
      const commit = verdict.outcome.request.commit.slice(0, 7);
      const row = rowsOf(dir).findLast((fields) => fields[0] === commit && fields[4] === `try ${index}`);
      const overheadMs =
        Date.parse(row[8]) - Date.parse(verdict.outcome.request.submittedAt) - verdict.outcome.runSeconds * 1000;
      overheads.push(overheadMs);
    }
    // The heartbeat (every 2 s) after the last verdict carries the spawn count: both are read from the same one.
    const last = readDaemonUsage(dir).at;
    await waitFor(() => readDaemonUsage(dir).at !== last, 10_000);
    const after = readDaemonUsage(dir);
    const result = {
      experiments, overhead_median_ms: median(overheads), overhead_p95_ms: percentile(overheads, 95),
      overhead_max_ms: Math.max(...overheads),
      // The whole request (the reset after the row included) and the idle looks between them.
      daemon_cpu_ms_per_experiment: Math.round(((after.ticks - before.ticks) * 10) / experiments),
      children_cpu_ms_per_experiment: Math.round(((after.childTicks - before.childTicks) * 10) / experiments),
      daemon_spawns_per_experiment: Number(((after.spawned - before.spawned) / experiments).toFixed(1)),
      load: Number(loadavg()[0].toFixed(1)),
    };
    if (trace) result.phases = summarizeTrace(trace);
    process.stderr.write(
      `verifier overhead: median ${result.overhead_median_ms} ms, p95 ${result.overhead_p95_ms} ms over ` +
        `${experiments}; daemon ${result.daemon_cpu_ms_per_experiment} ms CPU (its processes ` +
        `${result.children_cpu_ms_per_experiment} ms) and ` +
        `${result.daemon_spawns_per_experiment} processes an experiment (load ${result.load})\n`,
    );
    return result;
  } finally {
    downAndRemove(dir);
  }
}

// `submitted <sha> "..."` names the commit; the newest verdict file for it is ours.
function readVerdictName(dir, out) {
  const sha = /submitted ([0-9a-f]{7})/.exec(out)?.[1];
  return readdirSync(join(dir, "state", "verdicts")).filter((name) => name.endsWith(`-${sha}.json`)).sort().at(-1);
}

export async function benchThroughput(seconds = 30, agents = 8, parallel = 2, runSeconds = 1) {
  const dir = createRepo({
    "prompt.md": "x\n",
    "train.mjs": "const VALUE = 1.0;\n",
    "org.yaml": verifyYaml(`bt${process.pid}`, { runtime: "hill", count: agents, parallel, sleep: runSeconds }),
  });
  try {
    org(["up", "--no-attach"], dir);
    await waitFor(() => { try { return rowsOf(dir).length >= agents; } catch { return false; } }, 120_000);
    const start = rowsOf(dir).length;
    const started = Date.now();
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const done = rowsOf(dir).length - start;
    const elapsed = (Date.now() - started) / 1000;
    const ideal = Math.floor((parallel * elapsed) / runSeconds);
    const result = {
      agents,
      slots: parallel,
      run_seconds: runSeconds,
      window_seconds: Number(elapsed.toFixed(1)),
      experiments: done,
      ideal,
      efficiency: Number((done / ideal).toFixed(2)),
    };
    process.stderr.write(
      `throughput: ${done} experiments in ${result.window_seconds}s with ${parallel} slots; ` +
        `ideal ${ideal} (${result.efficiency})\n`,
    );
    return result;
  } finally {
    downAndRemove(dir);
  }
}
