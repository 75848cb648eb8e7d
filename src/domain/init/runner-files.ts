// The command that runs and judges an experiment when there is no train script: a package.json or Makefile
// benchmark, a scorer script, or tests alone.
import { isChecker, isCode, listMentioned } from "./repo-files.js";
import type { RepoListing } from "./repo-listing.js";

export interface Runner {
  kind: "scorer" | "npm-bench" | "make-bench" | "npm-test" | "make-test";
  reason: string;
  command: string[];
  /** Scripts that run or judge the experiment: protected, and where the metric is printed. */
  files: string[];
  /** Other files the run depends on (package.json, the Makefile, a scorer's data): protected. */
  guards: string[];
  /** What the runner's command runs, to find the files it names. */
  text: string;
}

const BENCH_NAMES = ["bench", "benchmark", "perf"];
const SCORER_NAMES = "score|scorer|scoring|eval|evaluate|evaluation|grade|grader|judge|bench|benchmark";
const SCORER = new RegExp(`^(?:scripts/)?(${SCORER_NAMES})\\.(sh|bash|py|mjs|js)$`);
const BENCH_FOLDER = /^(bench|benchmark|benchmarks|perf)\//;
const GATED = " and a test script: a change must pass the tests to be measured";

/** A benchmark first (it prints a number), then a scorer script, then tests alone (a number left to print). */
export function findRunner(listing: RepoListing): Runner | undefined {
  const npm = readNpm(listing);
  const make = readMake(listing);
  return npm.bench ?? make.bench ?? findScorer(listing) ?? npm.test ?? make.test;
}

type Found = { bench?: Runner; test?: Runner };

function readNpm(listing: RepoListing): Found {
  const scripts = readScripts(listing.texts["package.json"]);
  const guards = ["package.json", ...listing.files.filter((file) => file === "package-lock.json")];
  const test = scripts.test !== undefined && !/no test specified/.test(scripts.test) ? scripts.test : undefined;
  const bench = BENCH_NAMES.find((name) => scripts[name] !== undefined);
  const testRunner = test === undefined ? undefined : fromScript(listing, {
    kind: "npm-test", reason: "package.json has a test script, and no benchmark", command: ["npm", "test", "--silent"],
  }, test, guards);
  if (bench === undefined) return testRunner ? { test: testRunner } : {};
  const command = test === undefined
    ? ["npm", "run", "--silent", bench]
    : ["sh", "-c", `npm test --silent && npm run --silent ${bench}`];
  const reason = `package.json has a ${bench} script${test ? GATED : ""}`;
  return { bench: fromScript(listing, { kind: "npm-bench", reason, command }, scripts[bench]!, guards) };
}

function readMake(listing: RepoListing): Found {
  const makefile = ["Makefile", "makefile", "GNUmakefile"].find((name) => listing.texts[name] !== undefined);
  if (makefile === undefined) return {};
  const targets = readTargets(listing.texts[makefile]!);
  const bench = BENCH_NAMES.find((name) => targets.has(name));
  const test = targets.get("test");
  if (bench === undefined) {
    if (test === undefined) return {};
    const reason = `the ${makefile} has a test target, and no benchmark`;
    const command = ["make", "-s", "test"];
    return { test: fromScript(listing, { kind: "make-test", reason, command }, test, [makefile]) };
  }
  const command = test === undefined ? ["make", "-s", bench] : ["sh", "-c", `make -s test && make -s ${bench}`];
  const reason = `the ${makefile} has a ${bench} target${test === undefined ? "" : GATED.replace("script", "target")}`;
  return { bench: fromScript(listing, { kind: "make-bench", reason, command }, targets.get(bench)!, [makefile]) };
}

// A scorer's data (and a checker it calls) is protected with it; the code it runs is what agents change.
function findScorer(listing: RepoListing): Runner | undefined {
  const scorer = listing.files.find((file) => SCORER.test(file));
  if (scorer === undefined) return undefined;
  const text = listing.texts[scorer] ?? "";
  const isData = (file: string) => file !== scorer && (!isCode(file) || isChecker(file));
  const guards = listMentioned(text, listing.files).filter(isData);
  const command = [interpreterOf(scorer, listing.programs), scorer];
  return { kind: "scorer", reason: `${scorer} looks like the scorer`, command, files: [scorer], guards, text };
}

// The files a script names are its own: protected, and a benchmark folder with them.
function fromScript(
  listing: RepoListing, what: Pick<Runner, "kind" | "reason" | "command">, text: string, guards: string[],
): Runner {
  const named = listMentioned(text, listing.files);
  const folders = [...new Set(named.filter((file) => BENCH_FOLDER.test(file)).map((file) => file.split("/")[0]!))];
  return { ...what, files: named, guards: [...guards, ...folders], text };
}

function interpreterOf(file: string, programs: string[]): string {
  if (file.endsWith(".py")) return programs.includes("python3") || !programs.includes("python") ? "python3" : "python";
  return /\.[cm]?js$/.test(file) ? "node" : "bash";
}

function readScripts(text: string | undefined): Record<string, string> {
  if (text === undefined) return {};
  try {
    const scripts = (JSON.parse(text) as { scripts?: unknown }).scripts;
    if (typeof scripts !== "object" || scripts === null) return {};
    const entries = Object.entries(scripts).filter((entry): entry is [string, string] => typeof entry[1] === "string");
    return Object.fromEntries(entries);
  } catch {
    return {};
  }
}

/** Each target's recipe (its own line and its tab-indented lines), by target name. */
function readTargets(text: string): Map<string, string> {
  const targets = new Map<string, string>();
  let name: string | undefined;
  for (const line of text.split("\n")) {
    const target = /^([A-Za-z0-9_.-]+)\s*:(?!=)(.*)$/.exec(line);
    if (target) targets.set((name = target[1]!), target[2]!);
    else if (name !== undefined && line.startsWith("\t")) targets.set(name, `${targets.get(name)}\n${line}`);
    else if (line.trim() !== "" && !line.startsWith("#")) name = undefined;
  }
  return targets;
}
