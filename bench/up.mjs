// `org up` to all panes running for N agents, next to a bare script doing the same worktree adds and one chained
// tmux call.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { FOREVER, ROOT, createRepo, killTmux, median, ms, removeDir } from "./lib.mjs";

// CPU ms (user + system) of a side's process and the children it waited for, which load shifts far less than wall
// time; the tmux server and what it forks (panes, the daemon) are counted on neither side. Without GNU time, none.
const TIME = "/usr/bin/time";

/** Runs argv; its wall ms, its CPU ms (or null), and its stdout. */
function runTimed(argv, options) {
  const timed = existsSync(TIME);
  // The round before removed a repo of worktrees: its writeback would land on whichever side runs next.
  spawnSync("sync");
  const start = performance.now();
  const [file, ...args] = timed ? [TIME, "-f", "org-bench-cpu %U %S", ...argv] : argv;
  const result = spawnSync(file, args, { ...options, encoding: "utf8" });
  const elapsed = ms(start);
  const failed = `${argv.slice(0, 3).join(" ")} failed (${result.status})`;
  if (result.status !== 0) throw new Error(`${failed}: ${result.stderr}${result.stdout}`);
  const cpu = /^org-bench-cpu ([\d.]+) ([\d.]+)$/m.exec(result.stderr ?? "");
  return { elapsed, cpu: cpu ? Math.round((Number(cpu[1]) + Number(cpu[2])) * 1000) : null, stdout: result.stdout };
}

function orgYaml(name, n) {
  const runtimes = `runtimes:\n  idle: { command: ["${FOREVER}"] }\n`;
  return `name: ${name}\ngpus: none\n${runtimes}roles:\n  a: { prompt: prompt.md, runtime: idle, count: ${n} }\n`;
}

// BENCH_UP_OTHER=<another org tree, built>: its `org up` runs as a third side in every round, so a change and its
// baseline meet the same load.
const OTHER = process.env.BENCH_UP_OTHER;

function timeOrgUp(n, round, tree = ROOT) {
  const name = `bu${process.pid}n${n}r${round}${tree === ROOT ? "" : "o"}`;
  const bin = join(tree, "bin", "org.js");
  const dir = createRepo({ "prompt.md": "# {{agent}}\n", "org.yaml": orgYaml(name, n) });
  try {
    const env = { ...process.env, TMUX: "", ORG_ROOT: "" };
    const { elapsed, cpu, stdout } = runTimed([process.execPath, bin, "up", "--no-attach"], { cwd: dir, env });
    const running = (stdout.match(/^a-\d+ .* running /gm) ?? []).length;
    if (running !== n) throw new Error(`only ${running}/${n} agents running after org up:\n${stdout}`);
    return { elapsed, cpu };
  } finally {
    spawnSync(process.execPath, [bin, "down"], { cwd: dir, env: { ...process.env, TMUX: "", ORG_ROOT: "" } });
    removeDir(dir);
  }
}

// The same work by hand, done carefully: branches in one update-ref, serial `worktree add --no-checkout` (concurrent
// adds race on .git/worktrees), checkouts 4 at a time, then one tmux invocation building the tiled grid.
function timeBare(n, round) {
  const dir = createRepo({ "prompt.md": "x\n" });
  const socket = `bare-${process.pid}-${n}-${round}`;
  const script = [
    "set -e",
    "base=$(git rev-parse main)",
    `for i in $(seq 1 ${n}); do echo "create refs/heads/bare/a-$i $base"; done | git update-ref --stdin`,
    `for i in $(seq 1 ${n}); do git worktree add -q --no-checkout worktrees/a-$i bare/a-$i; done`,
    `for i in $(seq 1 ${n}); do git -C worktrees/a-$i reset -q --hard & if [ $((i % 4)) = 0 ]; then wait; fi; done`,
    "wait",
    `args="new-session -d -s bare -x 240 -y 80 -c $PWD ${FOREVER}"`,
    `for i in $(seq 1 ${n}); do args="$args ; split-window -t bare -c $PWD/worktrees/a-$i ${FOREVER}`
      + ` ; select-layout -t bare tiled"; done`,
    `eval tmux -L ${socket} -f /dev/null $(echo "$args" | sed 's/ ; / \\\\; /g')`,
  ].join("\n");
  try {
    const { elapsed, cpu } = runTimed(["bash", "-c", script], { cwd: dir });
    const listed = execFileSync("tmux", ["-L", socket, "list-panes", "-t", "bare", "-F", "#{pane_id}"], {
      encoding: "utf8",
    });
    const panes = listed.trim().split("\n").length;
    if (panes !== n + 1) throw new Error(`bare script made ${panes} panes, expected ${n + 1}`);
    return { elapsed, cpu };
  } finally {
    killTmux(socket);
    removeDir(dir);
  }
}

// BENCH_UP_SIZES=16,64 and BENCH_UP_ROUNDS=7: the disk of a shared machine makes one round meaningless, so the two
// sides alternate, each round's order flipped, and the ratio is of the medians.
const SIZES = (process.env.BENCH_UP_SIZES ?? "4,16,64").split(",").map(Number);
const ROUNDS = Number(process.env.BENCH_UP_ROUNDS ?? 7);

export function benchUp(sizes = SIZES, rounds = ROUNDS) {
  return sizes.map((n) => {
    const orgRuns = [];
    const bareRuns = [];
    const otherRuns = [];
    for (let round = 0; round < rounds; round++) {
      const sides = [() => bareRuns.push(timeBare(n, round)), () => orgRuns.push(timeOrgUp(n, round))];
      if (OTHER) sides.push(() => otherRuns.push(timeOrgUp(n, round, OTHER)));
      // Each round starts with another side, and every other round runs them backwards.
      const order = [...sides.slice(round % sides.length), ...sides.slice(0, round % sides.length)];
      for (const side of round % 2 === 0 ? order : order.reverse()) side();
    }
    const load = loadavg()[0].toFixed(2);
    const [orgMs, bareMs] = [orgRuns, bareRuns].map((runs) => runs.map((run) => run.elapsed));
    const cpuOf = (runs) => (runs.every((run) => run.cpu !== null) ? median(runs.map((run) => run.cpu)) : null);
    const ratio = Number((median(orgMs) / median(bareMs)).toFixed(2));
    const result = {
      agents: n, org_up_ms: median(orgMs), bare_script_ms: median(bareMs), ratio,
      org_up_cpu_ms: cpuOf(orgRuns), bare_script_cpu_ms: cpuOf(bareRuns),
      rounds, load_1m: Number(load), org_up_all_ms: orgMs, bare_all_ms: bareMs,
    };
    if (OTHER) {
      const otherMs = otherRuns.map((run) => run.elapsed);
      Object.assign(result, {
        other_tree: OTHER, other_up_ms: median(otherMs), other_up_cpu_ms: cpuOf(otherRuns),
        other_ratio: Number((median(otherMs) / median(bareMs)).toFixed(2)), other_all_ms: otherMs,
      });
    }
    const cpu = result.org_up_cpu_ms === null ? "" : `; CPU ${result.org_up_cpu_ms} vs ${result.bare_script_cpu_ms} ms`;
    const times = `org ${result.org_up_ms} ms, bare ${result.bare_script_ms} ms, ratio ${ratio}${cpu}`;
    const other = OTHER
      ? `; ${OTHER}: ${result.other_up_ms} ms, ratio ${result.other_ratio}, CPU ${result.other_up_cpu_ms}` : "";
    process.stderr.write(`up N=${n}: ${times}${other} (${rounds} rounds a side, load ${load})\n`);
    return result;
  });
}
