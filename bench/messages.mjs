// Delivery latency with 32 idle agents: message file written → the notifier sees it (detect) → the
// line is typed into the recipient's pane (notified), next to raw fs.watch on 32 folders in the same run.
import { mkdtempSync, watch } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { FOREVER, ROOT, createRepo, downAndRemove, org, percentile, removeDir } from "./lib.mjs";

const { sendMessage } = await import(join(ROOT, "dist", "adapters", "store", "inbox-files.js"));
const { MessagesSchema } = await import(join(ROOT, "dist", "domain", "config", "schema.js"));

const IDLE_MS = 1000;

function summarize(values) {
  return {
    n: values.length,
    p50_ms: percentile(values, 50),
    p99_ms: percentile(values, 99),
    max_ms: Math.max(...values),
  };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(check, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

// The floor: the same atomic write (temp file, then rename) seen by a bare fs.watch per folder.
async function benchFsWatch(agents, rounds) {
  const dir = mkdtempSync(join(tmpdir(), "org-bench-watch-"));
  try {
    const latencies = [];
    const pending = new Map();
    const watchers = [];
    for (let index = 0; index < agents; index++) {
      const folder = join(dir, `inbox-${index}`);
      await mkdir(folder, { recursive: true });
      watchers.push(watch(folder, (_, name) => {
        const started = pending.get(`${index}/${name}`);
        if (started === undefined) return;
        pending.delete(`${index}/${name}`);
        latencies.push(Number((performance.now() - started).toFixed(2)));
      }));
    }
    for (let round = 0; round < rounds; round++) {
      for (let index = 0; index < agents; index++) {
        const name = `m-${round}.md`;
        pending.set(`${index}/${name}`, performance.now());
        const file = join(dir, `inbox-${index}`, name);
        await writeFile(`${file}.tmp`, "---\nid: x\n---\n\nhello\n");
        await rename(`${file}.tmp`, file);
      }
      await waitFor(() => pending.size === 0, 5000, "fs.watch events");
    }
    watchers.forEach((watcher) => watcher.close());
    return summarize(latencies);
  } finally {
    removeDir(dir);
  }
}

async function readOutcome(dir, agent, id) {
  const text = await readFile(join(dir, "state", "agents", agent, "notifications.jsonl"), "utf8").catch(() => "");
  return text.split("\n").filter(Boolean).map((line) => JSON.parse(line)).find((line) => line.ids.includes(id));
}

// CPU seconds the daemon used, from /proc: what the notifier's pane sampling costs while nothing happens.
async function cpuSeconds(pid) {
  const fields = (await readFile(`/proc/${pid}/stat`, "utf8")).split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function orgYaml(name, agents, notify) {
  return `name: ${name}\ngpus: none\nruntimes:\n  idle: { command: ["${FOREVER}"] }\nroles:\n  a: { prompt: ` +
    `prompt.md, runtime: idle, count: ${agents} }\nmessages: { idle: ${IDLE_MS}ms, notify: ${notify} }\n`;
}

// Up, wait for the daemon, and measure its CPU over 5 s while nothing happens.
async function upIdle(dir) {
  org(["up", "--no-attach"], dir);
  const daemon = await waitFor(
    () =>
      readFile(join(dir, "state", "daemon.json"), "utf8").then(
        (text) => JSON.parse(text).pid,
        () => undefined,
      ),
    60_000,
    "the daemon",
  );
  await sleep(3 * IDLE_MS);
  const before = await cpuSeconds(daemon);
  await sleep(5000);
  return Number(((((await cpuSeconds(daemon)) - before) / 5) * 100).toFixed(1));
}

export async function benchMessages(agents = 32, rounds = 5) {
  const fsWatch = await benchFsWatch(agents, rounds);
  process.stderr.write(`fs.watch: p50 ${fsWatch.p50_ms} ms, p99 ${fsWatch.p99_ms} ms\n`);
  const quiet = createRepo({ "prompt.md": "# {{agent}}\n", "org.yaml": orgYaml(`bq${process.pid}`, agents, false) });
  let quietCpu;
  try {
    quietCpu = await upIdle(quiet);
  } finally {
    downAndRemove(quiet);
  }
  const dir = createRepo({ "prompt.md": "# {{agent}}\n", "org.yaml": orgYaml(`bm${process.pid}`, agents, true) });
  const settings = MessagesSchema.parse({});
  try {
    const idleCpu = await upIdle(dir);
    const state = join(dir, "state");
    const names = Array.from({ length: agents }, (_, index) => `a-${index + 1}`);
    const detect = [];
    const notified = [];
    const byMode = { burst: [], spread: [] };
    const outcomes = {};
    // Bursts: every agent gets a message at once. Spread: one message every 50 ms, round-robin.
    for (const mode of ["burst", "spread"]) {
      for (let round = 0; round < rounds; round++) {
        const sent = [];
        for (const agent of names) {
          const { id } = await sendMessage(
            state,
            { from: "person", to: [agent], kind: "note", body: `round ${round}` },
            settings,
          );
          sent.push({ agent, id });
          if (mode === "spread") await sleep(50);
        }
        for (const { agent, id } of sent) {
          const outcome = await waitFor(() => readOutcome(dir, agent, id), 15_000, `${agent}'s notification`);
          outcomes[outcome.outcome] = (outcomes[outcome.outcome] ?? 0) + 1;
          detect.push(outcome.detectMs);
          if (outcome.outcome === "typed") notified.push(outcome.latencyMs);
          if (outcome.outcome === "typed") byMode[mode].push(outcome.latencyMs);
        }
        // Typing changed every pane: let them go still again before the next round.
        await sleep(3 * IDLE_MS);
      }
    }
    const result = {
      agents,
      messages: detect.length,
      idle_setting_ms: IDLE_MS,
      load_average: loadavg().map((load) => Number(load.toFixed(1))),
      raw_fs_watch: fsWatch,
      detected: summarize(detect),
      pane_notified: summarize(notified),
      pane_notified_burst: summarize(byMode.burst),
      pane_notified_spread: summarize(byMode.spread),
      outcomes,
      daemon_idle_cpu_percent: { notify: idleCpu, notify_off: quietCpu },
      goal: "p50 ≤ 20 ms, p99 ≤ 100 ms",
    };
    process.stderr.write(
      `messages: detected p50 ${result.detected.p50_ms} ms p99 ${result.detected.p99_ms} ms; ` +
        `notified p50 ${result.pane_notified.p50_ms} ms p99 ${result.pane_notified.p99_ms} ms; ` +
        `daemon idle CPU ${idleCpu}% (${quietCpu}% with notify off)\n`,
    );
    return result;
  } finally {
    downAndRemove(dir);
  }
}
