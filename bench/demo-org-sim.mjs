// Issue 17 part 5's side by side, simulated like bench/pool.mjs but with no processes: 3 and 8 hillclimb researchers on
// a synthetic demo landscape (7 knobs, additive gains, Gaussian run noise σ) for the same number of experiments, judged
// by the real pure decisions in dist/ (decideKeep with confirmation runs, decideTried, decideFrontier). "today" = no
// ledger answers, no stacking, no frontier following; "org" = all three. Needs `npm run build`. Scale: DEMO_SIM_SEEDS
// (5), DEMO_SIM_EXPERIMENTS (120).
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./lib.mjs";

const load = (path) => import(pathToFileURL(join(ROOT, "dist", path)).href);
const { decideKeep } = await load("domain/experiments/keep-rule.js");
const { decideTried } = await load("domain/experiments/tried-answer.js");
const { decideFrontier } = await load("domain/experiments/frontier.js");
const { seededRng } = await load("roles/builtin/hillclimb-step.js");

const KNOBS = 7;
const SIGMA = 0.004;
const BASE = 0.088;
const RUN_S = 1.0;
const RULE = { k: 2, minDelta: 0, confirm: 2 };
const round = (value, digits = 4) => (value === null || value === undefined ? null : Number(value.toFixed(digits)));

// A step is hillclimb's factor in units of ×1.25: 0.8/1.25 are ∓1, 0.5/2 are ∓3, so 28 changes from any code.
const STEPS = [-3, -1, 1, 3];
// Each knob's best offset (in units) and gain per unit toward it: additive, so changes found apart stack.
function makeLandscape(rng) {
  return Array.from({ length: KNOBS }, () => ({ optimum: Math.floor(rng() * 9) - 4, gain: 0.001 + rng() * 0.004 }));
}
const truth = (land, state) =>
  BASE -
  land.reduce((sum, knob, i) => sum + knob.gain * (Math.abs(knob.optimum) - Math.abs(knob.optimum - state[i])), 0);
const gaussian = (rng) => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
const keyOf = (state) => state.join(",");

function simulate({ agents, experiments, seed, org }) {
  const land = makeLandscape(seededRng(seed * 7919));
  const noise = seededRng(seed * 104729);
  const measure = (state) => truth(land, state) + SIGMA * gaussian(noise);
  const base = Array(KNOBS).fill(0);
  const baseline = truth(land, base);
  const team = Array.from({ length: agents }, (_, i) => ({
    name: `r${i}`,
    rng: seededRng(seed * 1000 + i),
    best: { state: base, metric: baseline, runs: 3 },
    news: false,
  }));
  let frontier = { commit: keyOf(base), state: base, metric: baseline, agent: "baseline", runs: 3 };
  const ledger = [];
  const out = {
    runs: 0,
    duplicates_answered: 0,
    skipped_before_submit: 0,
    stacks: 0,
    first_beat_noise: null,
    duplicates_run: 0,
    duplicate_run_s: 0,
  };
  const judge = (state, best) => {
    const samples = [measure(state)];
    out.runs++;
    for (;;) {
      const decision = decideKeep({
        goal: "minimize",
        metric: "val_loss",
        best: best.metric,
        bestRuns: best.runs,
        samples,
        sigma: SIGMA,
        rule: RULE,
      });
      if (decision.kind !== "confirm") return { ...decision, runs: samples.length };
      for (let r = 0; r < decision.runs; r++, out.runs++) samples.push(measure(state));
    }
  };
  const advance = (state, metric, runs, agent, n) => {
    if (decideFrontier(frontier, { commit: keyOf(state), metric, agent }, "minimize", "val_loss").kind === "hold")
      return false;
    frontier = { commit: keyOf(state), state, metric, agent, runs };
    if (out.first_beat_noise === null && truth(land, state) < baseline - RULE.k * SIGMA) out.first_beat_noise = n;
    for (const other of team) other.news = true;
    return true;
  };
  for (let n = 1; n <= experiments; n++) {
    const agent = team[(n - 1) % agents];
    if (org && agent.news && frontier.metric < agent.best.metric)
      agent.best = { state: frontier.state, metric: frontier.metric, runs: frontier.runs };
    const from = agent.best.state;
    const draw = () => {
      const i = Math.floor(agent.rng() * KNOBS);
      const step = STEPS[Math.floor(agent.rng() * STEPS.length)];
      return { moves: [[i, step]], key: `${i}${step > 0 ? "+" : ""}${step}` };
    };
    // As proposeUntried: past 32 tried single steps, two at once.
    const two = () => {
      const a = draw();
      const b = draw();
      return { moves: [...a.moves, ...b.moves], key: `${a.key};${b.key}` };
    };
    let change = draw();
    if (org) {
      // As proposeUntried: up to 32 more draws past changes the ledger
      // holds on this code; one avoided duplicate if it found one.
      const tried = new Set(
        ledger.filter((entry) => entry.change.tree === keyOf(from)).map((entry) => entry.description),
      );
      let draws = 0;
      while (tried.has(change.key) && draws < 64) { draws++; change = draws < 32 ? draw() : two(); }
      if (draws > 0 && !tried.has(change.key)) out.skipped_before_submit++;
    }
    const state = [...from];
    for (const [i, step] of change.moves) state[i] += step;
    const tried = decideTried({
      commit: `${n}`.padStart(40, "0"),
      agent: agent.name,
      description: change.key,
      change: { kind: "change", key: { patchId: change.key, tree: keyOf(from) } },
      entries: ledger,
      best: agent.best,
      metricName: "val_loss",
    });
    if (org && tried.kind === "answer") { out.duplicates_answered++; continue; }
    const before = out.runs;
    const verdict = judge(state, agent.best);
    // Today the ledger is written but not consulted: a change judged on this code before is run again.
    if (tried.kind === "answer") { out.duplicates_run++; out.duplicate_run_s += (out.runs - before) * RUN_S; }
    ledger.push({
      commit: `${n}`.padStart(40, "0"),
      agent: agent.name,
      description: change.key,
      status: verdict.kind,
      metric: verdict.mean,
      reason: "",
      seconds: RUN_S * verdict.runs,
      time: "",
      change: { patchId: change.key, tree: keyOf(from) },
    });
    if (verdict.kind !== "keep") continue;
    const previous = agent.best.state;
    agent.best = { state, metric: verdict.mean, runs: verdict.runs };
    if (advance(state, verdict.mean, verdict.runs, "agent", n) || !org) continue;
    // Stacking: the kept change (previous best → kept) onto the org best, judged as the org's own experiment.
    const stacked = frontier.state.map((value, i) => value + state[i] - previous[i]);
    if (keyOf(stacked) === frontier.commit) continue;
    out.stacks++;
    const onto = judge(stacked, frontier);
    if (onto.kind === "keep") advance(stacked, onto.mean, onto.runs, "org", n);
  }
  // Without following, the org best is still the best of anyone's: what frontier.json shows.
  return {
    seed,
    baseline: round(baseline),
    org_best_true: round(truth(land, frontier.state)),
    org_best_measured: round(frontier.metric),
    experiments_to_first_beat_noise: out.first_beat_noise,
    runs: out.runs,
    duplicates_avoided: out.duplicates_answered + out.skipped_before_submit,
    duplicates_answered: out.duplicates_answered,
    skipped_before_submit: out.skipped_before_submit,
    cpu_s_saved: round((out.duplicates_answered + out.skipped_before_submit) * RUN_S, 1),
    duplicates_run: out.duplicates_run,
    cpu_s_on_duplicates: round(out.duplicate_run_s, 1),
    stacks: out.stacks,
  };
}

export function benchDemoOrgSim() {
  const seeds = Number(process.env.DEMO_SIM_SEEDS ?? 5);
  const experiments = Number(process.env.DEMO_SIM_EXPERIMENTS ?? 120);
  const table = {};
  for (const agents of [3, 8]) {
    for (const org of [false, true]) {
      const runs = Array.from({ length: seeds }, (_, i) => simulate({ agents, experiments, seed: i + 1, org }));
      const mean = (field) => round(runs.reduce((sum, run) => sum + (run[field] ?? experiments), 0) / runs.length, 4);
      table[`${agents}_agents_${org ? "org" : "today"}`] = {
        agents,
        config: org ? "ledger + stacking + following" : "today (all off)",
        experiments,
        mean_org_best_true: mean("org_best_true"),
        mean_experiments_to_first_beat_noise: mean("experiments_to_first_beat_noise"),
        mean_runs: mean("runs"),
        runs,
      };
    }
  }
  return {
    simulated: true,
    sigma: SIGMA,
    run_s: RUN_S,
    rule: RULE,
    note:
      "experiments = submissions (a mean counts a seed that never beat the noise as the whole window); " +
      "runs include confirmation and stack runs; cpu_s_saved: one run (RUN_S) per duplicate avoided, " +
      "skipped before submit or answered by the ledger; duplicates_run / cpu_s_on_duplicates: " +
      "what today spends re-running changes already judged on the same code",
    table,
  };
}
