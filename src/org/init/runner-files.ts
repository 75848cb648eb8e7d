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
const SCORER = /^(?:scripts\/)?(score|scorer|scoring|eval|evaluate|evaluation|grade|grader|judge|bench|benchmark)\.(sh|bash|py|mjs|js)$/;
const BENCH_FOLDER = /^(bench|benchmark|benchmarks|perf)\//;

/** A benchmark first (it prints a number), then a scorer script, then tests alone (a number still to print). */
export function findRunner(listing: RepoListing): Runner | undefined {
  const scripts = readScripts(listing.texts["package.json"]);
  const makefile = ["Makefile", "makefile", "GNUmakefile"].find((name) => listing.texts[name] !== undefined);
  const targets = makefile ? readTargets(listing.texts[makefile]!) : new Map<string, string>();
  const npmBench = BENCH_NAMES.find((name) => scripts[name] !== undefined);
  const npmTest = scripts.test !== undefined && !/no test specified/.test(scripts.test) ? "test" : undefined;
  const lock = listing.files.filter((file) => file === "package-lock.json");
  if (npmBench) {
    const command = npmTest ? ["sh", "-c", `npm test --silent && npm run --silent ${npmBench}`] : ["npm", "run", "--silent", npmBench];
    const why = `package.json has a ${npmBench} script${npmTest ? " and a test script: a change must pass the tests to be measured" : ""}`;
    return fromScript("npm-bench", why, command, scripts[npmBench]!, ["package.json", ...lock], listing.files);
  }
  const makeBench = BENCH_NAMES.find((name) => targets.has(name));
  if (makefile && makeBench) {
    const test = targets.has("test");
    const command = test ? ["sh", "-c", `make -s test && make -s ${makeBench}`] : ["make", "-s", makeBench];
    const why = `the ${makefile} has a ${makeBench} target${test ? " and a test target: a change must pass the tests to be measured" : ""}`;
    return fromScript("make-bench", why, command, targets.get(makeBench)!, [makefile], listing.files);
  }
  const scorer = listing.files.find((file) => SCORER.test(file));
  if (scorer) {
    const text = listing.texts[scorer] ?? "";
    const data = listMentioned(text, listing.files).filter((file) => file !== scorer && (!isCode(file) || isChecker(file)));
    return { kind: "scorer", reason: `${scorer} looks like the scorer`, command: [interpreterOf(scorer, listing.programs), scorer], files: [scorer], guards: data, text };
  }
  if (npmTest) return fromScript("npm-test", "package.json has a test script, and no benchmark", ["npm", "test", "--silent"], scripts.test!, ["package.json", ...lock], listing.files);
  if (makefile && targets.has("test")) return fromScript("make-test", `the ${makefile} has a test target, and no benchmark`, ["make", "-s", "test"], targets.get("test")!, [makefile], listing.files);
  return undefined;
}

// The files a script names are its own: protected, and a benchmark folder with them.
function fromScript(kind: Runner["kind"], reason: string, command: string[], text: string, guards: string[], files: string[]): Runner {
  const named = listMentioned(text, files);
  const folders = [...new Set(named.filter((file) => BENCH_FOLDER.test(file)).map((file) => file.split("/")[0]!))];
  return { kind, reason, command, files: named, guards: [...guards, ...folders], text };
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
    return Object.fromEntries(Object.entries(scripts).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
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
