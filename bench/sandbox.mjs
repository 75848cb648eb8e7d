// The agents' sandbox, side by side with none: `org up` of N idle agents, and one agent's `org submit --no-wait`
// (in the sandbox it goes through the daemon's outbox; without, it runs in the agent's pane). Goal: ≤ 10 % more.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FOREVER, ORG, ROOT, createRepo, median, ms, percentile, removeDir } from "./lib.mjs";

// BENCH_ORG: another build's bin/org.js (a baseline) run with this bench and its submitter.
const ORG_BIN = process.env.BENCH_ORG ?? ORG;
function org(args, cwd) {
  const env = { ...process.env, TMUX: "", ORG_ROOT: "" };
  const result = spawnSync(process.execPath, [ORG_BIN, ...args], { cwd, encoding: "utf8", env });
  if (result.status !== 0) {
    throw new Error(`org ${args.join(" ")} failed (${result.status}): ${result.stderr}${result.stdout}`);
  }
  return result.stdout;
}

// BENCH_CGROUP: a cgroup v1 cpuacct folder this bench runs in (so do the org's daemon, workers and git, whoever
// their parent is now); a sandboxed side's submits then report the CPU they took, all processes together.
const CGROUP = process.env.BENCH_CGROUP;
const readCpuMs = () => Number(readFileSync(join(CGROUP, "cpuacct.usage"), "utf8")) / 1e6;

const SUBMITTER = join(ROOT, "bench", "sandbox-submitter");
const sandboxYaml = (on) => (on ? "" : "sandbox: { enabled: false }\n");
const pause = (msecs) => new Promise((resolve) => setTimeout(resolve, msecs));

function timeUp(n, on, round) {
  const name = `bs${process.pid}n${n}r${round}${on ? "on" : "off"}`;
  const yaml = `name: ${name}\ngpus: none\nruntimes:\n  idle: { command: ["${FOREVER}"] }\n`
    + `roles:\n  a: { prompt: prompt.md, runtime: idle, count: ${n} }\n${sandboxYaml(on)}`;
  const dir = createRepo({ "prompt.md": "# {{agent}}\n", "org.yaml": yaml });
  try {
    const start = performance.now();
    const out = org(["up", "--no-attach"], dir);
    const elapsed = ms(start);
    const running = (out.match(/^a-\d+ .* running /gm) ?? []).length;
    if (running !== n) throw new Error(`not every agent running after org up:\n${out}`);
    return elapsed;
  } finally {
    try { org(["down"], dir); } catch { /* already down */ }
    removeDir(dir);
  }
}

async function timeSubmits(on, submits, round) {
  const name = `bss${process.pid}r${round}${on ? "on" : "off"}`;
  // Every value is better than the last: each verdict is a keep, so no reset moves the branch under the next submit.
  const wait = CGROUP && on ? ", BENCH_WAIT_GO: \"1\"" : "";
  const yaml = `name: ${name}\ngpus: none\nruntimes:\n`
    + `  bench: { command: ["${SUBMITTER}"], env: { BENCH_SUBMITS: "${submits}"${wait} } }\n`
    + "roles:\n  a: { prompt: prompt.md, runtime: bench, edits: [value.txt] }\n"
    + `verify:\n  command: [sh, -c, 'echo "score: $(cat value.txt)"']\n`
    + "  metric: { name: score, pattern: '^score: ([0-9.]+)' }\n"
    + `  repeats: 1\n  queue_per_agent: 100\n  keep: { k: 0, min_delta: 0, confirm: 0 }\n${sandboxYaml(on)}`;
  const dir = createRepo({ "prompt.md": "# {{agent}}\n", "org.yaml": yaml, "value.txt": "1000\n" });
  const own = join(dir, "state", "agents", "a-1", "own");
  const log = join(own, "bench-submit.log");
  try {
    org(["up", "--no-attach"], dir);
    const deadline = Date.now() + 120_000;
    let cpu;
    if (wait) {
      while (!existsSync(join(own, "ready"))) {
        if (Date.now() > deadline) throw new Error("the submitter never got ready");
        await pause(50);
      }
      cpu = readCpuMs();
      writeFileSync(join(own, "go"), "");
    }
    while (!(existsSync(log) && readFileSync(log, "utf8").includes("done"))) {
      if (Date.now() > deadline) {
        throw new Error(`the submitter did not finish: ${existsSync(log) ? readFileSync(log, "utf8") : "no log"}`);
      }
      await pause(200);
    }
    const lines = readFileSync(log, "utf8").trim().split("\n").filter((line) => line !== "done");
    const rows = lines.map((line) => line.split(" ").map(Number));
    const failed = rows.filter(([, code]) => code !== 0).length;
    const cpuMs = cpu === undefined ? undefined : (readCpuMs() - cpu) / rows.length;
    const timed = rows.filter(([, code]) => code === 0).map(([elapsed]) => elapsed);
    return { ms: timed, git: rows.map(([, , bare]) => bare), failed, cpuMs };
  } finally {
    try { org(["down"], dir); } catch { /* already down */ }
    removeDir(dir);
  }
}

const overhead = (on, off) => Number((((on - off) / off) * 100).toFixed(1));

// Rounds alternate off and on: a busy machine's swings then fall on both sides alike. More rounds:
// BENCH_SANDBOX_ROUNDS, BENCH_SANDBOX_SUBMIT_ROUNDS (BENCH_SANDBOX_ROUNDS=0: the submits alone).
// BENCH_SANDBOX_SIDES=on: the sandboxed submits alone.
const SIDES = process.env.BENCH_SANDBOX_SIDES;
const fromEnv = (name, fallback) => Number(process.env[name] ?? fallback);
export async function benchSandbox({
  agents = 4, rounds = fromEnv("BENCH_SANDBOX_ROUNDS", 5), submitRounds = fromEnv("BENCH_SANDBOX_SUBMIT_ROUNDS", 3),
  submits = 5,
} = {}) {
  const up = { off: [], on: [] };
  for (let round = 0; round < rounds; round++) {
    up.off.push(timeUp(agents, false, round));
    up.on.push(timeUp(agents, true, round));
  }
  const off = { ms: [], git: [], failed: 0, cpu: [] };
  const on = { ms: [], git: [], failed: 0, cpu: [] };
  for (let round = 0; round < submitRounds; round++) {
    for (const [side, sandboxed] of SIDES === "on" ? [[on, true]] : [[off, false], [on, true]]) {
      const timed = await timeSubmits(sandboxed, submits, round);
      side.ms.push(...timed.ms);
      side.git.push(...timed.git);
      side.failed += timed.failed;
      if (timed.cpuMs !== undefined) side.cpu.push(timed.cpuMs);
    }
  }
  // The load beside the figures: on this shared machine they mean little above ~4.
  const load = Number((await import("node:os")).loadavg()[0].toFixed(2));
  const git = [...off.git, ...on.git];
  const result = {
    load,
    up: {
      agents, rounds, off_ms: median(up.off), on_ms: median(up.on),
      overhead_pct: overhead(median(up.on), median(up.off)), off_all_ms: up.off, on_all_ms: up.on,
    },
    submit: {
      submits: submits * submitRounds, off_ms: median(off.ms), on_ms: median(on.ms),
      overhead_pct: overhead(median(on.ms), median(off.ms)), off_p95_ms: percentile(off.ms, 95),
      on_p95_ms: percentile(on.ms, 95), git_commit_ms: median(git), git_commit_p95_ms: percentile(git, 95),
      off_failed: off.failed, on_failed: on.failed, off_all_ms: off.ms, on_all_ms: on.ms,
      ...(CGROUP ? { on_cpu_ms_per_submit: on.cpu.map((value) => Number(value.toFixed(1))) } : {}),
    },
  };
  const { submit } = result;
  const { up: upped } = result;
  const upLine = rounds > 0 ? `org up ${upped.off_ms} → ${upped.on_ms} ms (${upped.overhead_pct} %), ` : "";
  const offLine = SIDES === "on" ? "" : `${submit.off_ms} → `;
  const p95Line = SIDES === "on" ? "" : `${submit.off_p95_ms} → `;
  const cpuLine = CGROUP ? `, CPU a sandboxed submit ${median(on.cpu).toFixed(1)} ms` : "";
  process.stderr.write(
    `sandbox (load ${load}): ${upLine}org submit --no-wait ${offLine}${submit.on_ms} ms`
      + `${SIDES === "on" ? "" : ` (${submit.overhead_pct} %)`}, p95 ${p95Line}${submit.on_p95_ms} ms, `
      + `a bare git commit ${submit.git_commit_ms} ms (p95 ${submit.git_commit_p95_ms})${cpuLine}\n`,
  );
  return result;
}
