// Does the demo org learn as one (issue 17 part 5)? Runs `org demo` headless with its own seed (ORG_DEMO_SEED in the
// researchers' env) for up to DEMO_LEARNS_WINDOW_S seconds (120) × DEMO_LEARNS_SEEDS seeds (2), and records the time
// from `org demo` to the first org best (state/frontier.json) below the baseline by more than the keep threshold k·σ.
import { cpSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, downAndRemove, org } from "./lib.mjs";

const K = 2;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value, digits = 4) => (value === undefined || value === null ? null : Number(value.toFixed(digits)));

// The repo's own demo org.yaml, renamed for this run and with the seed in the researchers' env.
function demoYaml(seed, agents) {
  const yaml = readFileSync(join(ROOT, "org.yaml"), "utf8")
    .replace(/^name: demo$/m, `name: dl${seed}p${process.pid}`)
    .replace(
      "hill: { builtin: hillclimb, restart: always }",
      `hill: { builtin: hillclimb, restart: always, env: { ORG_DEMO_SEED: "${seed}" } }`,
    )
    .replace(/^ {4}count: 3$/m, `    count: ${agents}`);
  if (!yaml.includes("ORG_DEMO_SEED"))
    throw new Error("org.yaml's hill runtime line changed: update bench/demo-learns.mjs");
  return yaml;
}

function readJson(path) {
  try { return JSON.parse(readFileSync(path, "utf8")); } catch { return undefined; }
}

async function runSeed(seed, opts) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "org-bench-demo-")));
  cpSync(join(ROOT, "prompts"), join(dir, "prompts"), { recursive: true });
  writeFileSync(join(dir, "org.yaml"), demoYaml(seed, opts.agents));
  const started = Date.now();
  const moves = [];
  try {
    org(["demo", "--no-attach"], dir);
    let sigma;
    let crossed;
    while (Date.now() - started < opts.windowS * 1000) {
      const frontier = readJson(join(dir, "state", "frontier.json"));
      if (frontier && moves.at(-1)?.commit !== frontier.commit)
        moves.push({
          commit: frontier.commit,
          metric: frontier.metric,
          agent: frontier.agent,
          s: round((Date.parse(frontier.at) - started) / 1000, 1),
        });
      if (sigma === undefined && moves.length > 0)
        sigma = JSON.parse(org(["results", "--json"], dir)).sigma ?? undefined;
      if (sigma !== undefined && moves.length > 1 && moves.at(-1).metric < moves[0].metric - K * sigma) {
        crossed = moves.at(-1);
        break;
      }
      await sleep(1000);
    }
    const results = JSON.parse(org(["results", "--json"], dir));
    const rows = readFileSync(join(dir, "state", "results.tsv"), "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => line.split("\t"))
      .filter((fields) => fields[4] !== "baseline")
      .map((fields) => fields[3]);
    return {
      seed,
      agents: opts.agents,
      baseline: round(moves[0]?.metric),
      sigma: round(results.sigma ?? sigma),
      threshold: round(K * (results.sigma ?? sigma ?? NaN)),
      org_best: round(moves.at(-1)?.metric),
      seconds_to_beat_noise: crossed ? crossed.s : null,
      learned: crossed !== undefined,
      frontier_moves: moves.length - 1,
      experiments: rows.length,
      keeps: rows.filter((status) => status === "keep").length,
      load_average_end: round(loadavg()[0], 1),
    };
  } finally {
    downAndRemove(dir);
  }
}

export async function benchDemoLearns() {
  const seeds = Number(process.env.DEMO_LEARNS_SEEDS ?? 2);
  const opts = {
    windowS: Number(process.env.DEMO_LEARNS_WINDOW_S ?? 120),
    agents: Number(process.env.DEMO_LEARNS_AGENTS ?? 3),
  };
  // DEMO_LEARNS_FIRST_SEED: resume a series (seeds 4 and 5 after a run of 3) without running its first seeds again.
  const first = Number(process.env.DEMO_LEARNS_FIRST_SEED ?? 1);
  const runs = [];
  for (let seed = first; seed < first + seeds; seed++) {
    process.stderr.write(`demo-learns: seed ${seed} (${seeds} from ${first}), up to ${opts.windowS}s\n`);
    runs.push(await runSeed(seed, opts));
    process.stderr.write(`demo-learns: ${JSON.stringify(runs.at(-1))}\n`);
  }
  return {
    window_s: opts.windowS,
    k: K,
    learned: `${runs.filter((run) => run.learned).length}/${runs.length}`,
    load_average_start: round(loadavg()[0], 1),
    runs,
  };
}
