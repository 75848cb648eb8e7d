// `org watch` on a 16-agent org at 4 refreshes a second: its CPU and tmux command lines per refresh, next to a bare
// loop spawning the same one tmux call 4×/s and rendering nothing (what a spawn-per-refresh dashboard pays before
// drawing).
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ORG, createRepo, downAndRemove, org } from "./lib.mjs";

const AGENTS = 16;
const SECONDS = 10;
const TICK = 100; // getconf CLK_TCK on Linux

function orgYaml(name) {
  return `name: ${name}\ngpus: none\nruntimes:\n  chatty: { command: [sh, chatty.sh] }\nroles:\n  a: { prompt: ` +
    `prompt.md, runtime: chatty, count: ${AGENTS} }\n`;
}

// An agent that prints a line every 250 ms, so every refresh has new pane text to paint.
const CHATTY =
  '#!/bin/sh\ni=0\nwhile true; do i=$((i+1)); echo "$ORG_AGENT step $i: loss 0.$((i % 97)) ' +
    'lr 3e-4 tokens $((i * 4096))"; sleep 0.25; done\n';

/**
 * utime+stime of a process, and with its children (waited-for ones
 * and live ones, like a control-mode tmux client), in seconds.
 */
function cpuSeconds(pid) {
  const own = (id) => {
    const fields = readFileSync(`/proc/${id}/stat`, "utf8").split(") ")[1].split(" ");
    return [11, 12, 13, 14].map((index) => Number(fields[index]) / TICK);
  };
  const [utime, stime, cutime, cstime] = own(pid);
  const live = descendants(pid).reduce((sum, id) => {
    try {
      const [u, s] = own(id);
      return sum + u + s;
    } catch {
      return sum;
    }
  }, 0);
  return { self: utime + stime, withChildren: utime + stime + cutime + cstime + live };
}

function descendants(pid) {
  let children;
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
  return children.flatMap((child) => [child, ...descendants(child)]);
}

function rssMb(pid) {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((entry) => entry.startsWith("VmRSS:"));
  return Math.round(Number(line.split(/\s+/)[1]) / 1024);
}

async function measure(pid, seconds) {
  const start = cpuSeconds(pid);
  const began = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const end = cpuSeconds(pid);
  const elapsed = (performance.now() - began) / 1000;
  return {
    cpu_percent_of_core: Number(((100 * (end.self - start.self)) / elapsed).toFixed(1)),
    cpu_percent_with_tmux_clients: Number(((100 * (end.withChildren - start.withChildren)) / elapsed).toFixed(1)),
    elapsed,
  };
}

function countLines(file) {
  try {
    return readFileSync(file, "utf8").split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

async function waitFor(check, what, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function benchWatch() {
  const name = `bw${process.pid}`;
  const dir = createRepo({ "prompt.md": "# {{agent}}\n", "org.yaml": orgYaml(name), "chatty.sh": CHATTY });
  const outer = `bench-watch-${process.pid}`;
  // Counts every tmux the dashboard runs: first on its PATH, then the real one.
  const shim = join(dir, "shim");
  const calls = join(dir, "tmux-calls.log");
  mkdirSync(shim);
  const realTmux = execFileSync("sh", ["-c", "command -v tmux"], { encoding: "utf8" }).trim();
  // A control-mode client's command lines come on its stdin: the shim copies them to the log too.
  writeFileSync(join(shim, "tmux"), [
    "#!/bin/sh", `echo "spawn $*" >> '${calls}'`,
    `case " $* " in *" -C "*) exec tee -a '${calls}' | '${realTmux}' "$@" ;; esac`,
    `exec '${realTmux}' "$@"`, "",
  ].join("\n"));
  chmodSync(join(shim, "tmux"), 0o755);
  try {
    org(["up", "--no-attach"], dir);
    const record = JSON.parse(readFileSync(join(dir, "state", "org.json"), "utf8"));
    const serverPid = Number(
      execFileSync("tmux", ["-L", record.socket, "display-message", "-p", "-t", record.session, "#{pid}"], {
        encoding: "utf8",
      }).trim(),
    );
    const paneIds = record.agents.map((agent) => agent.paneId);

    const idle = await measure(serverPid, SECONDS);
    process.stderr.write(`watch: tmux server idle ${idle.cpu_percent_of_core}%\n`);

    // Baseline: the same single tmux call, 4×/s, from a bare node loop that renders nothing.
    const captureArgs = [
      "-L",
      record.socket,
      "-f",
      "/dev/null",
      "list-panes",
      "-s",
      "-t",
      `=${record.session}`,
      "-F",
      "#{pane_id}",
      ...paneIds.flatMap((id) => [
        ";",
        "display-message",
        "-p",
        "-t",
        id,
        `@@mark ${id}`,
        ";",
        "capture-pane",
        "-p",
        "-t",
        id,
      ]),
    ];
    const loop = spawn(
      process.execPath,
      [
        "-e",
        `const { execFile } = require("node:child_process"); setInterval(() => execFile("tmux", ` +
          `${JSON.stringify(captureArgs)}, () => {}), 250);`,
      ],
      { stdio: "ignore" },
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const bare = await measure(loop.pid, SECONDS);
    loop.kill();
    process.stderr.write(
      `watch: bare capture loop ${bare.cpu_percent_of_core}% (${bare.cpu_percent_with_tmux_clients}% with tmux ` +
        `clients)\n`,
    );

    execFileSync("tmux", ["-L", outer, "-f", "/dev/null", "new-session", "-d", "-x", "200", "-y", "60", "-e", "TMUX=",
      "env", "-u", "TMUX", `PATH=${shim}:${process.env.PATH}`, process.execPath, ORG, "-C", dir, "watch"]);
    const screen = () => execFileSync("tmux", ["-L", outer, "capture-pane", "-p"], { encoding: "utf8" });
    await waitFor(() => screen().includes("a-16 · running"), "the dashboard showing all 16 agents").catch((error) => {
      throw new Error(`${error.message}; the screen:\n${screen()}`);
    });
    const watchPid = Number(
      execFileSync("tmux", ["-L", outer, "display-message", "-p", "#{pane_pid}"], { encoding: "utf8" }).trim(),
    );
    const before = countLines(calls).length;
    const serverStart = cpuSeconds(serverPid);
    const dashboard = await measure(watchPid, SECONDS);
    const serverCpu = Number(((100 * (cpuSeconds(serverPid).self - serverStart.self)) / dashboard.elapsed).toFixed(1));
    const during = countLines(calls).slice(before);
    // Every refresh sends one line with capture-pane in it; anything else tmux was asked (or started) is overhead.
    const refreshes = during.filter((line) => !line.startsWith("spawn ") && line.includes("capture-pane")).length;
    const spawned = during.filter((line) => line.startsWith("spawn ")).length;
    const rss = rssMb(watchPid);
    execFileSync("tmux", ["-L", outer, "send-keys", "q"]);
    const result = {
      agents: AGENTS, seconds: SECONDS, refresh_ms: 250,
      dashboard_cpu_percent_of_core: dashboard.cpu_percent_of_core,
      dashboard_cpu_percent_with_its_tmux_client: dashboard.cpu_percent_with_tmux_clients,
      dashboard_rss_mb: rss,
      refreshes_per_second: Number((refreshes / dashboard.elapsed).toFixed(2)),
      tmux_processes_started: spawned,
      tmux_calls_per_refresh: refreshes === 0 ? null : Number((during.length / refreshes).toFixed(2)),
      org_tmux_server_cpu_percent: serverCpu,
      baseline_org_tmux_server_idle_cpu_percent: idle.cpu_percent_of_core,
      baseline_bare_capture_loop_cpu_percent: bare.cpu_percent_of_core,
      baseline_bare_capture_loop_cpu_percent_with_tmux_clients: bare.cpu_percent_with_tmux_clients,
      goal: "dashboard ≤ 10 % of a core; 1 tmux call per refresh",
    };
    process.stderr.write(
      `watch: dashboard ${result.dashboard_cpu_percent_of_core}% of a core ` +
        `(${result.dashboard_cpu_percent_with_its_tmux_client}% with its tmux client), ` +
        `${result.tmux_calls_per_refresh} tmux calls per refresh, ${result.refreshes_per_second} refreshes/s\n`,
    );
    return result;
  } finally {
    try { execFileSync("tmux", ["-L", outer, "kill-server"], { stdio: "ignore" }); } catch { /* already gone */ }
    rmSync(join(process.env.TMUX_TMPDIR || "/tmp", `tmux-${process.getuid()}`, outer), { force: true });
    downAndRemove(dir);
  }
}
