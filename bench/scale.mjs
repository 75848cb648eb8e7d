// Many simulated agents on this machine: the idle daemon's CPU and memory, `org status` latency, tmux use per
// supervisor poll, and, with hill-climbing researchers and short verify runs, rows lost (must be 0).
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { FOREVER, ROOT, createRepo, downAndRemove, median, ms, org } from "./lib.mjs";

const sleep = (millis) => new Promise((resolve) => setTimeout(resolve, millis));
const readDaemon = (dir) => JSON.parse(readFileSync(join(dir, "state/daemon.json"), "utf8"));

// utime + stime in clock ticks (100 per second) and resident memory, from /proc.
function processUsage(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return { ticks: Number(fields[11]) + Number(fields[12]), rssBytes: Number(fields[21]) * 4096 };
}

// Voluntary context switches of every thread of `pid`: how often the process woke, whatever the machine's load.
function countWakes(pid) {
  let wakes = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const status = readFileSync(`/proc/${pid}/task/${task}/status`, "utf8");
    wakes += Number(/\nvoluntary_ctxt_switches:\s+(\d+)/.exec(status)?.[1] ?? 0);
  }
  return wakes;
}

// CPU of the children this process waited for (utime + stime of those gone, in clock ticks of 10 ms).
function childrenCpuMs() {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

async function waitForHeartbeat(dir) {
  for (let waited = 0; waited < 30_000; waited += 100) {
    const daemon = existsSync(join(dir, "state/daemon.json")) ? readDaemon(dir) : {};
    if (daemon.heartbeatAt && daemon.usage) return daemon.pid;
    await sleep(100);
  }
  throw new Error("the daemon never wrote a heartbeat");
}

/** N idle agents: what the daemon costs while nobody works, and what `org status` costs a person. */
async function measureIdle(agents, windowMs) {
  const name = `sc${process.pid}n${agents}`;
  const dir = createRepo({
    "prompt.md": "# {{agent}}\n",
    "org.yaml": `name: ${name}\ngpus: none\nruntimes:\n  idle: { command: ["${FOREVER}"] }\nroles:\n  a: { prompt: ` +
      `prompt.md, runtime: idle, count: ${agents} }\n`,
  });
  try {
    org(["up", "--no-attach"], dir);
    const pid = await waitForHeartbeat(dir);
    // Past the start-up work (first looks, pipes for every pane's log).
    await sleep(5000);
    // The keeper idles beside the daemon for the org's whole life: its CPU is the org's too.
    const keeper = Number(readFileSync(join(dir, "state/keeper.lock"), "utf8").trim());
    const sample = () => ({
      ...processUsage(pid), ...readDaemon(dir).usage, wakes: countWakes(pid), keeperTicks: processUsage(keeper).ticks,
      at: performance.now(),
    });
    const before = sample();
    await sleep(windowMs);
    const after = sample();
    const seconds = (after.at - before.at) / 1000;
    const polls = after.polls - before.polls;
    const statusMs = [];
    const statusCpuMs = [];
    for (let round = 0; round < 5; round++) {
      const [start, cpu] = [performance.now(), childrenCpuMs()];
      org(["status"], dir);
      statusMs.push(ms(start));
      // Its node, tmux and git together: a figure the machine's load barely moves, unlike the wall time.
      statusCpuMs.push(childrenCpuMs() - cpu);
    }
    const result = {
      agents,
      idle_window_s: Number(seconds.toFixed(1)),
      daemon_cpu_pct: Number((((after.ticks - before.ticks) / 100 / seconds) * 100).toFixed(2)),
      daemon_cpu_ms: (after.ticks - before.ticks) * 10,
      keeper_cpu_pct: Number((((after.keeperTicks - before.keeperTicks) / 100 / seconds) * 100).toFixed(2)),
      daemon_wakes_per_s: Number(((after.wakes - before.wakes) / seconds).toFixed(1)),
      daemon_rss_mb: Math.round(after.rssBytes / 1e6),
      supervisor_polls: polls,
      tmux_commands_per_poll: Number(((after.tmuxCommands - before.tmuxCommands) / polls).toFixed(2)),
      // Every tmux command the daemon sent (supervisor, screen watch, notifier, table), over the idle window.
      tmux_commands_per_s: Number(((after.tmuxCommands - before.tmuxCommands) / seconds).toFixed(2)),
      processes_spawned_while_idle: after.spawned - before.spawned,
      org_status_ms: median(statusMs),
      org_status_all_ms: statusMs,
      org_status_cpu_ms: median(statusCpuMs),
    };
    process.stderr.write(
      `scale idle N=${agents}: daemon ${result.daemon_cpu_pct}% CPU (${result.daemon_cpu_ms} ms), ` +
        `keeper ${result.keeper_cpu_pct}% CPU, ` +
        `${result.daemon_wakes_per_s} wakes/s, ${result.daemon_rss_mb} MB, ` +
        `${result.supervisor_polls} supervisor polls, ${result.tmux_commands_per_s} tmux commands/s, ` +
        `${result.processes_spawned_while_idle} processes spawned, org status ${result.org_status_ms} ms ` +
        `(${result.org_status_cpu_ms} ms CPU)\n`,
    );
    return result;
  } finally {
    downAndRemove(dir);
  }
}

/** N hill-climbing researchers on the demo repo for a while: every verdict must have exactly one row. */
async function measureWork(agents, seconds) {
  const dir = createRepo({ "org.yaml": `name: sw${process.pid}
repo: .demo/research
base: main
gpus: none
runtimes:
  hill: { builtin: hillclimb, restart: always }
roles:
  researcher: { prompt: prompts/researcher.md, runtime: hill, count: ${agents}, edits: [train.mjs] }
verify:
  command: ["node", "train.mjs"]
  protected: [prepare.mjs]
  metric: { name: val_loss, pattern: '^val_loss:\\s*([-+0-9.eE]+)', goal: minimize }
  timeout: 1m
  parallel: 2
  repeats: 1
  keep: { k: 0, min_delta: 0, confirm: 0 }
` });
  mkdirSync(join(dir, "prompts"), { recursive: true });
  copyFileSync(join(ROOT, "prompts/researcher.md"), join(dir, "prompts/researcher.md"));
  try {
    org(["demo", "--no-attach"], dir);
    await sleep(seconds * 1000);
    org(["down"], dir);
    const rows = readFileSync(join(dir, "state/results.tsv"), "utf8")
      .split("\n")
      .filter(Boolean)
      .slice(1)
      .map((line) => line.split("\t"));
    const verdictsDir = join(dir, "state/verdicts");
    const verdicts = existsSync(verdictsDir)
      ? readdirSync(verdictsDir)
          .filter((file) => file.endsWith(".json"))
          .map((file) => JSON.parse(readFileSync(join(verdictsDir, file), "utf8")).outcome.request)
      : [];
    const header = readFileSync(join(dir, "state/results.tsv"), "utf8").split("\n")[0].split("\t");
    const column = (row, key) => row[header.indexOf(key)];
    // A verdict answered with no row, or with two, is a lost or
    // doubled experiment; by commit, as a commit is judged once.
    const rowsOf = (request) =>
      rows.filter((row) => column(row, "agent") === request.agent && request.commit.startsWith(column(row, "commit")))
        .length;
    const lost = verdicts.filter((request) => rowsOf(request) === 0).length;
    const doubled = verdicts.filter((request) => rowsOf(request) > 1).length;
    const result = {
      agents,
      seconds,
      rows: rows.length,
      verdicts: verdicts.length,
      rows_lost: lost,
      rows_doubled: doubled,
    };
    process.stderr.write(
      `scale work N=${agents} for ${seconds}s: ${result.rows} rows, ${result.verdicts} verdicts, ${lost} lost, ` +
        `${doubled} doubled\n`,
    );
    return result;
  } finally {
    downAndRemove(dir);
  }
}

/** ORG_SCALE_WORK_SECONDS=0 measures the idle org only; ORG_SCALE_SIZES=64 one size. */
const SIZES = (process.env.ORG_SCALE_SIZES ?? "32,64").split(",").map(Number);
export async function benchScale({
  sizes = SIZES,
  windowMs = Number(process.env.ORG_SCALE_IDLE_SECONDS ?? 60) * 1000,
  workAgents = 64,
  workSeconds = Number(process.env.ORG_SCALE_WORK_SECONDS ?? 90),
} = {}) {
  const idle = [];
  for (const agents of sizes) idle.push(await measureIdle(agents, windowMs));
  return { idle, work: workSeconds > 0 ? await measureWork(workAgents, workSeconds) : null };
}
