// kill -9 of the daemon to the next daemon's first tick (its first heartbeat, written once every service has started),
// brought back by its keeper: a fresh org each round, so no round is a "quick death" that the keeper backs off from.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { FOREVER, createRepo, downAndRemove, median, org } from "./lib.mjs";

const orgYaml = (name) =>
  `name: ${name}\ngpus: none\nruntimes:\n  idle: { command: ["${FOREVER}"] }\nroles:\n  a: { prompt: prompt.md, ` +
    `runtime: idle }\n`;

function readBeat(state) {
  try {
    return JSON.parse(readFileSync(join(state, "daemon.json"), "utf8"));
  } catch {
    return undefined;
  }
}

async function waitFor(check, what, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function timeRestart(mode, round) {
  const name = `bk${process.pid}${mode[0]}${round}`;
  const dir = createRepo({ "prompt.md": "# {{agent}}\n", "org.yaml": orgYaml(name) });
  const state = join(dir, "state");
  try {
    org(["up", "--no-attach", ...(mode === "pty" ? ["--no-tmux"] : [])], dir);
    const first = await waitFor(() => readBeat(state)?.heartbeatAt && readBeat(state), "the first daemon's heartbeat");
    await waitFor(() => existsSync(join(state, "keeper.lock")), "the keeper");
    const killedAt = Date.now();
    process.kill(first.pid, "SIGKILL");
    const next = await waitFor(() => {
      const beat = readBeat(state);
      return beat?.pid && beat.pid !== first.pid && beat.heartbeatAt ? beat : undefined;
    }, "the next daemon's first heartbeat");
    const keeper = JSON.parse(readFileSync(join(state, "keeper.json"), "utf8"));
    // Both on this machine's clock: the kill, and the heartbeat's own time stamp.
    return {
      tick_s: (Date.parse(next.heartbeatAt) - killedAt) / 1000,
      respawn_s: (Date.parse(keeper.lastRestart.at) - killedAt) / 1000,
    };
  } finally {
    downAndRemove(dir);
  }
}

export async function benchKeeper(rounds = 5) {
  const result = {};
  for (const mode of ["tmux", "pty"]) {
    const runs = [];
    for (let round = 0; round < rounds; round++) runs.push(await timeRestart(mode, round));
    const ticks = runs.map((run) => run.tick_s);
    result[mode] = {
      kill_to_first_tick_s: median(ticks),
      kill_to_respawn_s: median(runs.map((run) => run.respawn_s)),
      all_tick_s: ticks,
      rounds,
    };
    process.stderr.write(
      `keeper (${mode}): kill -9 to the next daemon's first tick, median ${median(ticks)} s of ${ticks.join(", ")}\n`,
    );
  }
  return result;
}
