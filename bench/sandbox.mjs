// The agents' sandbox, side by side with none: `org up` of N idle agents, and one agent's `org submit --no-wait`
// (in the sandbox it goes through the daemon's outbox; without, it runs in the agent's pane). Goal: ≤ 10 % more.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { FOREVER, ROOT, createRepo, median, ms, org, percentile, removeDir } from "./lib.mjs";

const SUBMITTER = join(ROOT, "bench", "sandbox-submitter");
const sandboxYaml = (on) => (on ? "" : "sandbox: { enabled: false }\n");

function timeUp(n, on, round) {
  const name = `bs${process.pid}n${n}r${round}${on ? "on" : "off"}`;
  const yaml = `name: ${name}\ngpus: none\nruntimes:\n  idle: { command: ["${FOREVER}"] }\nroles:\n  a: { prompt: prompt.md, runtime: idle, count: ${n} }\n${sandboxYaml(on)}`;
  const dir = createRepo({ "prompt.md": "# {{agent}}\n", "org.yaml": yaml });
  try {
    const start = performance.now();
    const out = org(["up", "--no-attach"], dir);
    const elapsed = ms(start);
    if ((out.match(/^a-\d+ .* running /gm) ?? []).length !== n) throw new Error(`not every agent running after org up:\n${out}`);
    return elapsed;
  } finally {
    try { org(["down"], dir); } catch { /* already down */ }
    removeDir(dir);
  }
}

async function timeSubmits(on, submits, round) {
  const name = `bss${process.pid}r${round}${on ? "on" : "off"}`;
  // Every value is better than the last: each verdict is a keep, so no reset moves the branch under the next submit.
  const yaml = `name: ${name}\ngpus: none\nruntimes:\n  bench: { command: ["${SUBMITTER}"], env: { BENCH_SUBMITS: "${submits}" } }\nroles:\n  a: { prompt: prompt.md, runtime: bench, edits: [value.txt] }\n`
    + `verify:\n  command: [sh, -c, 'echo "score: $(cat value.txt)"']\n  metric: { name: score, pattern: '^score: ([0-9.]+)' }\n  repeats: 1\n  queue_per_agent: 100\n  keep: { k: 0, min_delta: 0, confirm: 0 }\n${sandboxYaml(on)}`;
  const dir = createRepo({ "prompt.md": "# {{agent}}\n", "org.yaml": yaml, "value.txt": "1000\n" });
  const log = join(dir, "state", "agents", "a-1", "own", "bench-submit.log");
  try {
    org(["up", "--no-attach"], dir);
    const deadline = Date.now() + 120_000;
    while (!(existsSync(log) && readFileSync(log, "utf8").includes("done"))) {
      if (Date.now() > deadline) throw new Error(`the submitter did not finish: ${existsSync(log) ? readFileSync(log, "utf8") : "no log"}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const rows = readFileSync(log, "utf8").trim().split("\n").filter((line) => line !== "done").map((line) => line.split(" ").map(Number));
    const failed = rows.filter(([, code]) => code !== 0).length;
    return { ms: rows.filter(([, code]) => code === 0).map(([elapsed]) => elapsed), git: rows.map(([, , bare]) => bare), failed };
  } finally {
    try { org(["down"], dir); } catch { /* already down */ }
    removeDir(dir);
  }
}

const overhead = (on, off) => Number((((on - off) / off) * 100).toFixed(1));

// Rounds alternate off and on: a busy machine's swings then fall on both sides alike. More rounds: BENCH_SANDBOX_ROUNDS, BENCH_SANDBOX_SUBMIT_ROUNDS
// (BENCH_SANDBOX_ROUNDS=0: the submits alone).
const fromEnv = (name, fallback) => Number(process.env[name] ?? fallback);
export async function benchSandbox({ agents = 4, rounds = fromEnv("BENCH_SANDBOX_ROUNDS", 5), submitRounds = fromEnv("BENCH_SANDBOX_SUBMIT_ROUNDS", 3), submits = 5 } = {}) {
  const up = { off: [], on: [] };
  for (let round = 0; round < rounds; round++) {
    up.off.push(timeUp(agents, false, round));
    up.on.push(timeUp(agents, true, round));
  }
  const off = { ms: [], git: [], failed: 0 };
  const on = { ms: [], git: [], failed: 0 };
  for (let round = 0; round < submitRounds; round++) {
    for (const [side, sandboxed] of [[off, false], [on, true]]) {
      const timed = await timeSubmits(sandboxed, submits, round);
      side.ms.push(...timed.ms);
      side.git.push(...timed.git);
      side.failed += timed.failed;
    }
  }
  // The load beside the figures: on this shared machine they mean little above ~4.
  const load = Number((await import("node:os")).loadavg()[0].toFixed(2));
  const result = {
    load,
    up: { agents, rounds, off_ms: median(up.off), on_ms: median(up.on), overhead_pct: overhead(median(up.on), median(up.off)), off_all_ms: up.off, on_all_ms: up.on },
    submit: { submits: submits * submitRounds, off_ms: median(off.ms), on_ms: median(on.ms), overhead_pct: overhead(median(on.ms), median(off.ms)),
      off_p95_ms: percentile(off.ms, 95), on_p95_ms: percentile(on.ms, 95), git_commit_ms: median([...off.git, ...on.git]),
      git_commit_p95_ms: percentile([...off.git, ...on.git], 95), off_failed: off.failed, on_failed: on.failed, off_all_ms: off.ms, on_all_ms: on.ms },
  };
  const upLine = rounds > 0 ? `org up ${result.up.off_ms} → ${result.up.on_ms} ms (${result.up.overhead_pct} %), ` : "";
  process.stderr.write(`sandbox (load ${load}): ${upLine}org submit --no-wait ${result.submit.off_ms} → ${result.submit.on_ms} ms (${result.submit.overhead_pct} %), p95 ${result.submit.off_p95_ms} → ${result.submit.on_p95_ms} ms, a bare git commit ${result.submit.git_commit_ms} ms (p95 ${result.submit.git_commit_p95_ms})\n`);
  return result;
}
