// `org up` to all panes running for N agents, next to a bare script doing the same worktree adds and one chained tmux call.
import { execFileSync } from "node:child_process";
import { FOREVER, createRepo, killTmux, median, ms, org, removeDir } from "./lib.mjs";

function orgYaml(name, n) {
  return `name: ${name}\ngpus: none\nruntimes:\n  idle: { command: ["${FOREVER}"] }\nroles:\n  a: { prompt: prompt.md, runtime: idle, count: ${n} }\n`;
}

function timeOrgUp(n, round) {
  const name = `bu${process.pid}n${n}r${round}`;
  const dir = createRepo({ "prompt.md": "# {{agent}}\n", "org.yaml": orgYaml(name, n) });
  try {
    const start = performance.now();
    const out = org(["up", "--no-attach"], dir);
    const elapsed = ms(start);
    const running = (out.match(/^a-\d+ .* running /gm) ?? []).length;
    if (running !== n) throw new Error(`only ${running}/${n} agents running after org up:\n${out}`);
    return elapsed;
  } finally {
    try { org(["down"], dir); } catch { /* already down */ }
    removeDir(dir);
  }
}

// The same work by hand: N `git worktree add -b`, then one tmux invocation building the tiled grid.
function timeBare(n, round) {
  const dir = createRepo({ "prompt.md": "x\n" });
  const socket = `bare-${process.pid}-${n}-${round}`;
  const script = [
    "set -e",
    `for i in $(seq 1 ${n}); do git worktree add -q -b bare/a-$i worktrees/a-$i main; done`,
    `args="new-session -d -s bare -x 240 -y 80 -c $PWD ${FOREVER}"`,
    `for i in $(seq 1 ${n}); do args="$args ; split-window -t bare -c $PWD/worktrees/a-$i ${FOREVER} ; select-layout -t bare tiled"; done`,
    `eval tmux -L ${socket} -f /dev/null $(echo "$args" | sed 's/ ; / \\\\; /g')`,
  ].join("\n");
  try {
    const start = performance.now();
    execFileSync("bash", ["-c", script], { cwd: dir, stdio: "pipe" });
    const elapsed = ms(start);
    const panes = execFileSync("tmux", ["-L", socket, "list-panes", "-t", "bare", "-F", "#{pane_id}"], { encoding: "utf8" }).trim().split("\n").length;
    if (panes !== n + 1) throw new Error(`bare script made ${panes} panes, expected ${n + 1}`);
    return elapsed;
  } finally {
    killTmux(socket);
    removeDir(dir);
  }
}

export function benchUp(sizes = [4, 16, 32], rounds = 3) {
  return sizes.map((n) => {
    const orgMs = [];
    const bareMs = [];
    for (let round = 0; round < rounds; round++) {
      bareMs.push(timeBare(n, round));
      orgMs.push(timeOrgUp(n, round));
    }
    const result = { agents: n, org_up_ms: median(orgMs), bare_script_ms: median(bareMs), ratio: Number((median(orgMs) / median(bareMs)).toFixed(2)), rounds, org_up_all_ms: orgMs, bare_all_ms: bareMs };
    process.stderr.write(`up N=${n}: org ${result.org_up_ms} ms, bare ${result.bare_script_ms} ms, ratio ${result.ratio}\n`);
    return result;
  });
}

