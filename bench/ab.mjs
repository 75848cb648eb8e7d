// An A/B run of the demo (issue 18 part 4): `org up --ab` of AB_A and AB_B built-in researchers (3 vs 6) for
// AB_WINDOW_S seconds (1200), `org compare --json` every AB_EVERY_S (60); records when a verdict first named a winner.
// AB_B_TOPOLOGY=chief: B is a built-in chief with AB_B built-in juniors instead (a topology, not a count, differs).
import { cpSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, downAndRemove, git, org, removeDir } from "./lib.mjs";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value, digits = 4) => (typeof value === "number" ? Number(value.toFixed(digits)) : null);

// The repo's own demo org.yaml with `count` researchers under a name of this run's.
function demoYaml(count) {
  const yaml = readFileSync(join(ROOT, "org.yaml"), "utf8")
    .replace(/^name: demo$/m, `name: ab${process.pid}`)
    .replace(/^ {4}count: 3$/m, `    count: ${count}`);
  if (!yaml.includes(`count: ${count}`))
    throw new Error("org.yaml's researcher count line changed: update bench/ab.mjs");
  return yaml;
}

// The demo org.yaml with a built-in chief (no GPU) handing each of `count` built-in juniors one constant of train.mjs.
function chiefYaml(count) {
  const roles =
    `roles:\n  chief:\n    prompt: prompts/chief.md\n    runtime: boss\n    edits: ` +
    `[plan.md]\n  junior:\n    prompt: prompts/junior.md\n    runtime: hill\n    count: ${count}\n    gpu: ` +
    `true\n    edits: [train.mjs]\n    reports_to: chief\n`;
  const yaml = demoYaml(count)
    .replace(/^( {2}hill: .*\n)/m, "$1  boss: { builtin: chief, restart: always }\n")
    .replace(/^roles:\n(?: {2,}.*\n)+/m, roles);
  if (!yaml.includes("builtin: chief") || !yaml.includes("reports_to: chief"))
    throw new Error("org.yaml's runtimes or roles changed: update bench/ab.mjs");
  return yaml;
}

// Each measure's values and verdict, compactly.
function summarize(compare, s) {
  const measures = Object.fromEntries(
    compare.measures.map((line) => [
      line.measure,
      {
        a: round(line.a?.value),
        b: round(line.b?.value),
        diff: round(line.diff?.value),
        interval: line.diff?.interval?.map((x) => round(x)) ?? null,
        verdict: line.verdict.kind === "better" ? line.verdict.program : line.verdict.kind,
      },
    ]),
  );
  return { s, a_experiments: compare.a.experiments, b_experiments: compare.b.experiments, measures };
}

export async function benchAb() {
  const opts = {
    a: Number(process.env.AB_A ?? 3),
    b: Number(process.env.AB_B ?? 6),
    bTopology: process.env.AB_B_TOPOLOGY === "chief" ? "chief" : "researchers",
    windowS: Number(process.env.AB_WINDOW_S ?? 1200),
    everyS: Number(process.env.AB_EVERY_S ?? 60),
  };
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "org-bench-ab-")));
  cpSync(join(ROOT, "prompts"), join(dir, "prompts"), { recursive: true });
  writeFileSync(join(dir, "org.yaml"), demoYaml(opts.a));
  writeFileSync(join(dir, "other.yaml"), opts.bTopology === "chief" ? chiefYaml(opts.b) : demoYaml(opts.b));
  const series = [];
  try {
    // `org demo` creates the research repo (and starts A alone): down, and the A/B run starts from nothing of it.
    org(["demo", "--no-attach"], dir);
    org(["down"], dir);
    const repo = join(dir, ".demo", "research");
    removeDir(join(dir, "worktrees"));
    git(repo, ["worktree", "prune"]);
    for (const branch of git(repo, ["for-each-ref", "--format=%(refname:short)", "refs/heads/org"])
      .split("\n")
      .filter(Boolean))
      git(repo, ["branch", "-D", branch]);
    removeDir(join(dir, "state"));
    const started = Date.now();
    org(["up", "--no-attach", "--ab", "other.yaml"], dir);
    while (Date.now() - started < opts.windowS * 1000) {
      await sleep(opts.everyS * 1000);
      series.push(summarize(JSON.parse(org(["compare", "--json"], dir)), Math.round((Date.now() - started) / 1000)));
      process.stderr.write(`ab: ${JSON.stringify(series.at(-1))}\n`);
    }
    const first = series.find((point) =>
      Object.values(point.measures).some(
        (measure) => measure.verdict !== "unclear" && measure.verdict !== "too-few" && measure.verdict !== "unpriced",
      ),
    );
    return {
      ...opts,
      cpus: (await import("node:os")).cpus().length,
      load_average_end: round(loadavg()[0], 1),
      first_winner_s: first?.s ?? null,
      last: series.at(-1) ?? null,
      series,
    };
  } finally {
    downAndRemove(dir);
  }
}
