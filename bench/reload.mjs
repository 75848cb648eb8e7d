// Hot reload latency: save org.yaml with one more agent → org.json lists its pane (applied) → its supervisor
// reports the program running; next to a bare script doing the same worktree add and tmux split by hand.
// Goal: ≤ 1 s for one added agent.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FOREVER, createRepo, downAndRemove, killTmux, median, ms, org, percentile, removeDir } from "./lib.mjs";

const GOAL_MS = 1000;

function orgYaml(name, count) {
  return `name: ${name}\ngpus: none\nruntimes:\n  idle: { command: ["${FOREVER}"] }\nroles:\n  a: { prompt: ` +
    `prompt.md, runtime: idle, count: ${count} }\n`;
}

async function until(check, timeoutMs, what) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
}

// Saved the way editors do: a new file renamed over the old one.
function save(dir, text) {
  writeFileSync(join(dir, "org.yaml.tmp"), text);
  renameSync(join(dir, "org.yaml.tmp"), join(dir, "org.yaml"));
}

async function timeReloads(rounds) {
  const name = `br${process.pid}`;
  const dir = createRepo({ "prompt.md": "# {{agent}}\n", "org.yaml": orgYaml(name, 1) });
  try {
    org(["up", "--no-attach"], dir);
    // The daemon's first act is a reconcile that writes reload.json: from then on it watches org.yaml.
    await until(() => existsSync(join(dir, "state", "reload.json")), 30_000, "the daemon to watch org.yaml");
    const times = { running: [], applied: [] };
    for (let round = 0; round < rounds; round++) {
      const agent = `a-${round + 2}`;
      const start = performance.now();
      save(dir, orgYaml(name, round + 2));
      // Applied: org.json lists the agent with its new pane; running: its supervisor started the program.
      await until(
        () => readJson(join(dir, "state", "org.json"))?.agents.some((entry) => entry.name === agent && entry.paneId),
        30_000,
        `${agent} applied`,
      );
      times.applied.push(ms(start));
      await until(
        () => readJson(join(dir, "state", "agents", agent, "status.json"))?.state === "running",
        30_000,
        `${agent} running`,
      );
      times.running.push(ms(start));
    }
    return times;
  } finally {
    downAndRemove(dir);
  }
}

// The same work by hand on a running grid: one `git worktree add -b`, one split, one re-tile.
function timeBare(rounds) {
  const dir = createRepo({ "prompt.md": "x\n" });
  const socket = `bare-reload-${process.pid}`;
  const tmux = (args) => execFileSync("tmux", ["-L", socket, "-f", "/dev/null", ...args], { cwd: dir, stdio: "pipe" });
  try {
    tmux(["new-session", "-d", "-s", "bare", "-x", "240", "-y", "80", FOREVER]);
    const times = [];
    for (let round = 0; round < rounds; round++) {
      const start = performance.now();
      execFileSync(
        "bash",
        [
          "-c",
          `git worktree add -q -b bare/a-${round} worktrees/a-${round} main && tmux -L ${socket} -f /dev/null ` +
            `split-window -t bare -c worktrees/a-${round} ${FOREVER} \\; select-layout -t bare tiled`,
        ],
        { cwd: dir, stdio: "pipe" },
      );
      times.push(ms(start));
    }
    return times;
  } finally {
    killTmux(socket);
    removeDir(dir);
  }
}

export async function benchReload(rounds = 5) {
  const bare = timeBare(rounds);
  const reload = await timeReloads(rounds);
  const result = {
    agents_added: 1,
    rounds,
    goal_ms: GOAL_MS,
    reload_ms: median(reload.running),
    reload_p90_ms: percentile(reload.running, 90),
    meets_goal: median(reload.running) <= GOAL_MS,
    applied_ms: median(reload.applied),
    bare_script_ms: median(bare),
    debounce_ms: 200,
    reload_all_ms: reload.running,
    applied_all_ms: reload.applied,
    bare_all_ms: bare,
  };
  process.stderr.write(
    `reload: +1 agent running ${result.reload_ms} ms after the save (p90 ${result.reload_p90_ms}), ` +
      `bare worktree+split ${result.bare_script_ms} ms\n`,
  );
  return result;
}
