// What kind of research repo this is, and so what the verifier runs, what agents may edit and what they may not.
import { findRunner, type Runner } from "./runner-files.js";
import { listCodeFiles, listMentioned, listTestPaths } from "./repo-files.js";
import type { RepoListing } from "./repo-listing.js";

export type ProjectKind = "python-train" | "node-train" | Runner["kind"] | "unknown";

/** The guess for verify and edits, each part with its reason, written as a comment beside it. */
export interface ProjectGuess {
  kind: ProjectKind;
  /** Why this kind, e.g. "train.py trains and prepare.py evaluates (the autoresearch layout)". */
  reason: string;
  /** Empty when nothing here says how to run the experiment. */
  command: string[];
  edits: string[];
  /** Why those files, e.g. "score.sh runs it". */
  editsWhy: string;
  protected: string[];
  protectedWhy: string;
  /** Files whose text may print the metric, most likely first. */
  metricSources: string[];
}

const PYTHON_TRAIN = ["train.py"];
const NODE_TRAIN = ["train.mjs", "train.js"];

/** The first layout that fits: a train script, a scorer, a package.json or Makefile benchmark, then tests alone. */
export function detectProject(listing: RepoListing): ProjectGuess {
  const has = (file: string) => listing.files.includes(file);
  const python = PYTHON_TRAIN.find(has);
  if (python) return guessTrain(listing, "python-train", python, "prepare.py", pythonCommand(listing, python));
  const node = NODE_TRAIN.find(has);
  if (node) return guessTrain(listing, "node-train", node, node.replace("train", "prepare"), ["node", node]);
  const runner = findRunner(listing);
  return runner ? guessFromRunner(listing, runner) : guessUnknown(listing);
}

function guessFromRunner(listing: RepoListing, runner: Runner): ProjectGuess {
  const tests = listTestPaths(listing.files);
  const guarded = dropCovered([...runner.files, ...runner.guards, ...tests]);
  const code = listCodeFiles(listing.files).filter((file) => !isCovered(file, guarded));
  const mentioned = runner.kind === "scorer" ? listMentioned(runner.text, code) : [];
  const edits = mentioned.length > 0 ? mentioned : listEdits(code);
  const judge = runner.kind === "scorer" ? "the scorer" : runner.kind.endsWith("-bench") ? "the benchmark" : undefined;
  const what = judge ? `a test, ${judge}` : "a test";
  const runs = `${runner.files[0]} runs ${mentioned.length === 1 ? "it" : "them"}`;
  return {
    kind: runner.kind,
    reason: runner.reason,
    command: runner.command,
    edits,
    editsWhy: mentioned.length > 0 ? runs : `the code that is not ${what} or tooling`,
    protected: guarded,
    protectedWhy: `they run and judge the experiment${tests.length > 0 ? ", and the tests guard what it must do" : ""}`,
    metricSources: runner.files,
  };
}

function guessTrain(
  listing: RepoListing, kind: ProjectKind, train: string, prepare: string, command: string[],
): ProjectGuess {
  const evaluates = listing.files.includes(prepare);
  const layout = `${train} trains and ${prepare} evaluates (the autoresearch layout)`;
  return {
    kind,
    reason: evaluates ? layout : `${train} is the training script`,
    command,
    edits: [train],
    editsWhy: `${train} is what trains`,
    protected: evaluates ? [prepare] : [],
    protectedWhy: evaluates ? `${prepare} holds the data and the metric` : "",
    metricSources: evaluates ? [train, prepare] : [train],
  };
}

function guessUnknown(listing: RepoListing): ProjectGuess {
  return {
    kind: "unknown",
    reason: "no train script, scorer, package.json benchmark or Makefile target was found",
    command: [],
    edits: listEdits(listCodeFiles(listing.files)),
    editsWhy: "the code that is not a test or tooling",
    protected: [],
    protectedWhy: "",
    metricSources: [],
  };
}

// uv when the project is uv's (its lock file); else the python this machine has.
function pythonCommand(listing: RepoListing, train: string): string[] {
  if (listing.files.includes("uv.lock") && listing.programs.includes("uv")) return ["uv", "run", train];
  return [listing.programs.includes("python3") || !listing.programs.includes("python") ? "python3" : "python", train];
}

const MAX_LISTED = 8;

/** The code files agents may change: each by name when few, else their top folders as globs. */
function listEdits(code: string[]): string[] {
  if (code.length <= MAX_LISTED) return code;
  return [...new Set(code.map((file) => (file.includes("/") ? `${file.split("/")[0]}/**` : file)))];
}

function isCovered(file: string, rules: string[]): boolean {
  return rules.some((rule) => file === rule || file.startsWith(`${rule}/`));
}

// A file inside a protected folder is protected already: listed once, by its folder.
function dropCovered(paths: string[]): string[] {
  const unique = [...new Set(paths)];
  return unique.filter((path) => !isCovered(path, unique.filter((other) => other !== path)));
}
