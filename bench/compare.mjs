// `org compare` measured: how many experiments each side needs before it names the better version, how often it names
// a winner between two equal versions (false winners), and how long the command takes on 10,000 results rows.
import { writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { ROOT, createRepo, org, removeDir } from "./lib.mjs";

const { seededRng } = await import(join(ROOT, "dist", "roles", "index.js"));
const versions = join(ROOT, "dist", "domain", "config-versions");
const { compareSamples, RESAMPLES } = await import(join(versions, "compare-versions.js"));

// Each experiment holds one GPU for 30 min; 5 % crash; a keep moves the best down by an exponential step (mean 0.003:
// memoryless, so a later version is not handicapped by diminishing returns). A researcher runs 2 experiments a wall
// hour.
function makeExperiments(n, keep, random) {
  return Array.from({ length: n }, () => {
    const roll = random();
    const status = roll < keep ? "keep" : roll < keep + 0.05 ? "crash" : "discard";
    return {
      status,
      metric: status === "crash" ? undefined : status === "keep" ? -0.003 * Math.log(1 - random()) : 1,
      seconds: 1800,
    };
  });
}

/**
 * A side after `hours` of wall time: its researchers' experiments,
 * its keeps as running bests from 1.0, $2 per agent-hour.
 */
function makeSide(program, researchers, hours, keep, random) {
  let best = 1;
  const experiments = makeExperiments(Math.round(researchers * 2 * hours), keep, random).map((one) =>
    one.status === "keep"
      ? { ...one, metric: (best -= one.metric) }
      : one.status === "discard"
        ? { ...one, metric: best + 0.001 }
        : one,
  );
  return { program, experiments, startBest: 1, costUsd: researchers * hours * 2 };
}

function winners(a, b) {
  return compareSamples(a, b, "minimize", seededRng(18))
    .measures.filter((line) => line.verdict.kind === "better")
    .map((line) => [line.measure, line.verdict.program]);
}

const quantile = (values, q) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

/** 3 researchers keeping 10 % against 6 keeping 20 %: the first wall hour at which each measure names B, per seed. */
function benchDiffering(seeds = 20, maxHours = 30) {
  const firsts = { keepRate: [], improvementPerGpuHour: [], improvementPerUsd: [], toFirstKeep: [] };
  const wrong = [];
  for (let seed = 1; seed <= seeds; seed++) {
    const seen = new Set();
    for (let hours = 1; hours <= maxHours && seen.size < Object.keys(firsts).length; hours++) {
      // The same seed grows the same history: hour h extends hour h − 1's experiments.
      const random = seededRng(seed);
      const a = makeSide("A", 3, hours, 0.1, random);
      const b = makeSide("B", 6, hours, 0.2, seededRng(seed + 1000));
      for (const [measure, program] of winners(a, b)) {
        if (program === "A") wrong.push(measure);
        if (program === "B" && measure in firsts && !seen.has(measure)) {
          seen.add(measure);
          firsts[measure].push({ hours, a: a.experiments.length, b: b.experiments.length });
        }
      }
    }
  }
  const summary = Object.fromEntries(Object.entries(firsts).map(([measure, found]) => [measure, {
    seedsDecided: `${found.length}/${seeds}`, medianHours: quantile(found.map((one) => one.hours), 0.5),
    medianExperiments: { A: quantile(found.map((one) => one.a), 0.5), B: quantile(found.map((one) => one.b), 0.5) },
    p90Experiments: { A: quantile(found.map((one) => one.a), 0.9), B: quantile(found.map((one) => one.b), 0.9) },
  }]));
  return {
    model: "A: 3 researchers, keep 10 %; B: 6 researchers, keep 20 %; 2 experiments per researcher-hour, 5 % crash",
    maxHours,
    summary,
    wrongWinners: wrong.length,
  };
}

/** Two equal versions (keep 15 %, 3 vs 6 researchers): how often any measure names a winner. */
function benchEqual(seeds = 100, sizes = [10, 30, 90]) {
  return sizes.map((perSideA) => {
    const counts = {};
    let any = 0;
    for (let seed = 1; seed <= seeds; seed++) {
      const hours = perSideA / 6;
      const found = winners(
        makeSide("A", 3, hours, 0.15, seededRng(seed)),
        makeSide("B", 6, hours, 0.15, seededRng(seed + 5000)),
      );
      if (found.length > 0) any++;
      for (const [measure] of found) counts[measure] = (counts[measure] ?? 0) + 1;
    }
    return {
      experiments: { A: perSideA, B: perSideA * 2 },
      seeds,
      anyMeasureFalseWinnerRate: any / seeds,
      perMeasure: Object.fromEntries(Object.entries(counts).map(([measure, count]) => [measure, count / seeds])),
    };
  });
}

/** `org compare` end to end on a results.tsv of 10,000 rows under two versions. */
function benchCommand(rows = 10_000) {
  const dir = createRepo({
    "org.yaml":
      'name: toy\nrepo: .\nbase: main\ngpus: none\nruntimes:\n  printer: { command: [sleep, ' +
        '"1000"] }\nroles:\n  researcher: { prompt: prompts/researcher.md, runtime: printer, count: 1 }\n',
    "prompts/researcher.md": "# R\n",
  });
  try {
    mkdirSync(join(dir, "state"), { recursive: true });
    const random = seededRng(7);
    const start = Date.UTC(2026, 0, 7);
    const lines = Array.from({ length: rows }, (_, index) => {
      const program = index < rows / 2 ? "aaaaaaaa" : "bbbbbbbb";
      const roll = random();
      const status = roll < 0.15 ? "keep" : roll < 0.2 ? "crash" : "discard";
      return [
        `c${index}`,
        status === "crash" ? "0.000000" : (1 - index * 1e-5).toFixed(6),
        "0.0",
        status,
        "idea",
        "r-1",
        "0",
        "1800.0",
        new Date(start + index * 60_000).toISOString(),
        program,
      ].join("\t");
    });
    writeFileSync(
      join(dir, "state", "results.tsv"),
      `commit\tval_bpb\tmemory_gb\tstatus\tdescription\tagent\tgpu\tseconds\ttime\tprogram\n${lines.join("\n")}\n`,
    );
    const times = [0, 1, 2].map(() => {
      const began = performance.now();
      org(["compare", "aaaaaaaa", "bbbbbbbb"], dir);
      return performance.now() - began;
    });
    return { rows, resamples: RESAMPLES, ms: { median: Math.round(quantile(times, 0.5)), all: times.map(Math.round) } };
  } finally {
    removeDir(dir);
  }
}

export function benchCompare() {
  return { differing: benchDiffering(), equal: benchEqual(), command: benchCommand() };
}
