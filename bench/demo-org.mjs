// Issue 17's measurement on the real demo org (not a simulation): ledger + stacking + frontier-following ("org") vs all
// three off ("today": verify.ledger false, verify.stack false, ORG_HILLCLIMB_FOLLOW=0 and ORG_HILLCLIMB_TRIED=0), with
// 3 and 8 built-in researchers, each arm stopped at the same number of agent experiments, same ORG_DEMO_SEED side by
// side. The org best is re-measured at the end with fresh seeds (the frontier's own figure is a maximum of noisy
// draws). Scale: DEMO_ORG_SEEDS (3), DEMO_ORG_FIRST_SEED (1), DEMO_ORG_SIZES ("3,8"), DEMO_ORG_EXPERIMENTS (60),
// DEMO_ORG_WINDOW_S (420).
import { cpSync, mkdtempSync, readFileSync, realpathSync, writeFileSync, readdirSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { ROOT, downAndRemove, git, org, removeDir } from "./lib.mjs";

const K = 2;
const REMEASURE_SEEDS = [1001, 1002, 1003, 1004, 1005];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value, digits = 4) =>
  value === undefined || value === null || Number.isNaN(value) ? null : Number(value.toFixed(digits));
const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;

// The repo's demo org.yaml with the seed, the size and, for "today", the three switches off.
// "nofollow" (DEMO_ORG_ARMS only): ledger and stacking on, following off, to see stacking where agents do not follow.
function armYaml(seed, agents, arm) {
  const off = {
    today: `, ORG_HILLCLIMB_FOLLOW: "0", ORG_HILLCLIMB_TRIED: "0"`,
    nofollow: `, ORG_HILLCLIMB_FOLLOW: "0"`,
    org: "",
  }[arm];
  const env = `ORG_DEMO_SEED: "${seed}"${off}`;
  let yaml = readFileSync(join(ROOT, "org.yaml"), "utf8")
    .replace(/^name: demo$/m, `name: do${arm.slice(0, 2)}${seed}p${process.pid}`)
    .replace(
      "hill: { builtin: hillclimb, restart: always }",
      `hill: { builtin: hillclimb, restart: always, env: { ${env} } }`,
    )
    .replace(/^ {4}count: 3$/m, `    count: ${agents}`);
  if (arm === "today") yaml = yaml.replace(/^ {2}parallel: 2$/m, "  parallel: 2\n  ledger: false\n  stack: false");
  if (!yaml.includes("ORG_DEMO_SEED") || (arm === "today" && !yaml.includes("ledger: false")))
    throw new Error("org.yaml's demo lines changed: update bench/demo-org.mjs");
  return yaml;
}

const readLines = (path) => {
  try { return readFileSync(path, "utf8").split("\n").filter((line) => line.trim() !== ""); } catch { return []; }
};
const readJsonl = (path) =>
  readLines(path).flatMap((line) => { try { return [JSON.parse(line)]; } catch { return []; } });

function readRows(dir) {
  const [header, ...lines] = readLines(join(dir, "state", "results.tsv"));
  if (!header) return [];
  const names = header.split("\t");
  return lines.map((line) => Object.fromEntries(line.split("\t").map((value, i) => [names[i], value])));
}

// Mean metric of a commit's train.mjs over fresh seeds, run here beside the demo's protected prepare.mjs.
function remeasure(repo, commit) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "org-bench-remeasure-")));
  try {
    cpSync(join(repo, "prepare.mjs"), join(dir, "prepare.mjs"));
    writeFileSync(join(dir, "train.mjs"), git(repo, ["show", `${commit}:train.mjs`]));
    const values = REMEASURE_SEEDS.map((seed) => {
      const run = spawnSync(process.execPath, ["train.mjs"], {
        cwd: dir,
        encoding: "utf8",
        env: { ...process.env, ORG_SEED: String(seed) },
      });
      const match = /^val_loss:\s*([-+0-9.eE]+)/m.exec(run.stdout);
      return match ? Number(match[1]) : NaN;
    });
    return values.some(Number.isNaN) ? null : mean(values);
  } finally {
    removeDir(dir);
  }
}

// Figures of the first `experiments` agent rows (answered ones included) and the org rows among them.
function summarize(dir, experiments, frontier, sigma) {
  const rows = readRows(dir);
  const metricName = "val_loss";
  const baselines = rows.filter((row) => row.description.startsWith("baseline"));
  const baseline = baselines.length > 0 ? mean(baselines.map((row) => Number(row[metricName]))) : NaN;
  const window = [];
  let agentRows = 0;
  let firstBeat = null;
  let gpu = 0;
  const keeps = [];
  for (const row of rows) {
    if (row.description.startsWith("baseline")) continue;
    if (row.agent !== "org") agentRows++;
    if (agentRows > experiments) break;
    window.push(row);
    gpu += Number(row.seconds ?? 0);
    if (row.status === "keep") keeps.push([round(gpu, 1), Number(row[metricName])]);
    if (firstBeat === null && row.status === "keep" && Number(row[metricName]) < baseline - K * sigma)
      firstBeat = agentRows;
  }
  const commits = new Set(window.map((row) => row.commit));
  const tried = readJsonl(join(dir, "state", "tried.jsonl")).filter((entry) => commits.has(entry.commit.slice(0, 7)));
  // A change run again on the code it was judged on: what the ledger exists to save.
  const seen = new Map();
  const logs = readdirSync(join(dir, "state", "runs"));
  const runsOf = (commit) =>
    logs.filter((name) => name.includes(`-${commit.slice(0, 7)}.log`) || name.includes(`-${commit.slice(0, 7)}-run`))
      .length;
  const repeats = [];
  for (const entry of tried) {
    if (!entry.change) continue;
    const key = `${entry.change.patchId} ${entry.change.tree}`;
    if (seen.has(key) && entry.seconds > 0) repeats.push({ entry, first: seen.get(key) });
    if (!seen.has(key)) seen.set(key, entry);
  }
  const repeatsRun = repeats.length;
  const repeatSeconds = repeats.reduce((sum, { entry }) => sum + entry.seconds, 0);
  // What each repeat was, for a ledger arm that should have none: its runs on disk, and the entry it repeats.
  const repeatDetail = repeats.slice(0, 4).map(({ entry, first }) => ({
    agent: entry.agent,
    commit: entry.commit.slice(0, 7),
    status: entry.status,
    seconds: entry.seconds,
    run_logs: runsOf(entry.commit),
    time: entry.time,
    first: {
      agent: first.agent,
      commit: first.commit.slice(0, 7),
      status: first.status,
      time: first.time,
      dup: first.duplicateOf !== undefined,
    },
  }));
  const answered = tried.filter((entry) => entry.duplicateOf);
  const orgRows = window.filter((row) => row.agent === "org");
  // Every verify run writes its own log, named by time, agent and commit: confirmation runs count, answers do not.
  const runs = readdirSync(join(dir, "state", "runs")).filter(
    (name) =>
      /-[0-9a-f]{7}(-run\d+)?\.log$/.test(name) && commits.has(name.match(/-([0-9a-f]{7})(?:-run\d+)?\.log$/)[1]),
  ).length;
  return {
    baseline: round(baseline), sigma: round(sigma), experiments: window.length - orgRows.length,
    gpu_s: round(window.reduce((sum, row) => sum + Number(row.seconds ?? 0), 0), 1), runs,
    org_best: round(frontier?.metric), org_best_by: frontier?.agent ?? null,
    first_beat_noise_at: firstBeat,
    keeps: window.filter((row) => row.status === "keep").length,
    repeats_run: repeatsRun, repeat_gpu_s: round(repeatSeconds, 1),
    ...(repeatDetail.length > 0 ? { repeats_detail: repeatDetail } : {}),
    duplicates_answered: answered.length,
    gpu_s_saved: round(answered.reduce((sum, entry) => sum + entry.duplicateOf.seconds, 0), 1),
    stack_rows: orgRows.length, stack_keeps: orgRows.filter((row) => row.status === "keep").length,
    stack_attempts: readJsonl(join(dir, "state", "stacks.jsonl")).map((attempt) => attempt.outcome),
    keeps_by_gpu_s: keeps,
  };
}

// Lines where the hillclimb passed over changes the ledger held, across every agent's log.
function countSkips(dir) {
  let skipped = 0;
  const agents = join(dir, "state", "agents");
  for (const name of (() => { try { return readdirSync(agents); } catch { return []; } })()) {
    for (const file of (() => { try { return readdirSync(join(agents, name)); } catch { return []; } })()) {
      if (!file.endsWith(".log")) continue;
      for (const match of readFileSync(join(agents, name, file), "utf8").matchAll(
        /skipped (\d+) change\(s\) already tried/g,
      ))
        skipped += Number(match[1]);
    }
  }
  return skipped;
}

// The verifier's own words on stacks (queued, not stacked and why, judged), commits and names blanked, counted.
function readStackLog(dir) {
  const counts = {};
  for (const file of readdirSync(join(dir, "state")).filter((name) => name.endsWith(".log"))) {
    for (const match of readFileSync(join(dir, "state", file), "utf8").matchAll(/stack: (.*)$/gm)) {
      const words = match[1]
        .replace(/researcher-\d+/g, "R")
        .replace(/[0-9a-f]{7,40}/g, "#")
        .replace(/\d+\.\d+/g, "N")
        .slice(0, 90);
      counts[words] = (counts[words] ?? 0) + 1;
    }
  }
  return counts;
}

async function runArm(seed, agents, arm, opts) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "org-bench-demo-org-")));
  cpSync(join(ROOT, "prompts"), join(dir, "prompts"), { recursive: true });
  writeFileSync(join(dir, "org.yaml"), armYaml(seed, agents, arm));
  const started = Date.now();
  try {
    org(["demo", "--no-attach"], dir);
    let counted = 0;
    while (Date.now() - started < opts.windowS * 1000) {
      counted = readRows(dir).filter((row) => !row.description.startsWith("baseline") && row.agent !== "org").length;
      if (counted >= opts.experiments) break;
      await sleep(1000);
    }
    const frontier = (() => {
      try {
        return JSON.parse(readFileSync(join(dir, "state", "frontier.json"), "utf8"));
      } catch {
        return undefined;
      }
    })();
    const sigma = JSON.parse(org(["results", "--json"], dir)).sigma ?? NaN;
    const seconds = round((Date.now() - started) / 1000, 1);
    try { org(["down"], dir); } catch { /* already down */ }
    const repo = join(dir, ".demo", "research");
    const figures = summarize(dir, opts.experiments, frontier, sigma);
    return {
      ...figures,
      stack_log: readStackLog(dir),
      org_best_remeasured: frontier ? round(remeasure(repo, frontier.commit)) : null,
      baseline_remeasured: round(remeasure(repo, "main")),
      skipped_before_submit: countSkips(dir),
      wall_s: seconds,
      load_average_end: round(loadavg()[0], 1),
    };
  } finally {
    downAndRemove(dir);
  }
}

export async function benchDemoOrg() {
  const seeds = Number(process.env.DEMO_ORG_SEEDS ?? 3);
  const first = Number(process.env.DEMO_ORG_FIRST_SEED ?? 1);
  const sizes = (process.env.DEMO_ORG_SIZES ?? "3,8").split(",").map(Number);
  const opts = {
    arms: (process.env.DEMO_ORG_ARMS ?? "today,org").split(","),
    experiments: Number(process.env.DEMO_ORG_EXPERIMENTS ?? 60),
    windowS: Number(process.env.DEMO_ORG_WINDOW_S ?? 420),
  };
  const load = round(loadavg()[0], 1);
  const runs = [];
  for (const agents of sizes) {
    for (let seed = first; seed < first + seeds; seed++) {
      const run = { agents, seed };
      for (const arm of opts.arms) {
        process.stderr.write(
          `demo-org: ${agents} researchers, seed ${seed}, ${arm}: up to ${opts.experiments} experiments or ` +
            `${opts.windowS}s\n`,
        );
        run[arm] = await runArm(seed, agents, arm, opts);
      }
      // The better arm at equal GPU time: each arm's best kept metric (a mean
      // of confirmation runs) once the thriftier arm's GPU seconds are spent.
      const budget = Math.min(...opts.arms.map((arm) => run[arm].gpu_s));
      for (const arm of opts.arms)
        run[arm].best_at_equal_gpu_s = round(
          Math.min(
            run[arm].baseline,
            ...run[arm].keeps_by_gpu_s.filter(([at]) => at <= budget).map(([, metric]) => metric),
          ),
        );
      run.equal_gpu_s = budget;
      process.stderr.write(`demo-org: ${JSON.stringify(run)}\n`);
      runs.push(run);
    }
  }
  const paired = runs.filter((run) => run.today && run.org);
  const better = paired.filter(
    (run) =>
      run.org.org_best_remeasured !== null &&
      run.today.org_best_remeasured !== null &&
      run.org.org_best_remeasured < run.today.org_best_remeasured,
  ).length;
  const betterAtGpu = paired.filter((run) => run.org.best_at_equal_gpu_s < run.today.best_at_equal_gpu_s).length;
  return {
    experiments: opts.experiments,
    arms: opts.arms,
    k: K,
    remeasure_seeds: REMEASURE_SEEDS.length,
    load_average_start: load,
    org_better_remeasured: `${better}/${paired.length}`,
    org_better_at_equal_gpu_s: `${betterAtGpu}/${paired.length}`,
    runs,
  };
}
