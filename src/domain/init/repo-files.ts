// Which of a repo's files are code, tests or named by a script: the parts of `org init`'s guess about paths.

const CODE = /\.(py|mjs|cjs|js|jsx|ts|tsx|sh|bash|go|rs|c|cc|cpp|h|hpp|java|rb|jl|R)$/;
const TEST_FOLDER = /^(test|tests|__tests__|spec|specs)$/;
const TEST_FILE = /\.(test|spec)\.[cm]?[jt]sx?$|(^|\/)test_[^/]*\.py$|_test\.(py|go)$/;
// Tooling, not the experiment: configs of linters, bundlers and test runners.
const TOOLING = /(^|\/)(setup\.py|conftest\.py|noxfile\.py|[^/]*\.config\.[cm]?[jt]s|\.[^/]*rc\.[cm]?js)$/;

/** Test folders (each once, at any depth) and test files outside them: what the tests are, to protect. */
export function listTestPaths(files: string[]): string[] {
  const folders = new Set<string>();
  const loose: string[] = [];
  for (const file of files) {
    const parts = file.split("/");
    const at = parts.findIndex((part, index) => index < parts.length - 1 && TEST_FOLDER.test(part));
    if (at >= 0) folders.add(parts.slice(0, at + 1).join("/"));
    else if (TEST_FILE.test(file)) loose.push(file);
  }
  return [...folders, ...loose];
}

/** Code files that are neither tests nor tooling, in git's order. */
export function listCodeFiles(files: string[]): string[] {
  const tests = listTestPaths(files);
  const isTest = (file: string) => tests.some((test) => file === test || file.startsWith(`${test}/`));
  return files.filter((file) => CODE.test(file) && !TOOLING.test(file) && !isTest(file));
}

/** The files of `files` a script's text names, as `node bench.js`, `./solve.sh` or `< data/input.txt`. */
export function listMentioned(text: string, files: string[]): string[] {
  const words = new Set(text.split(/[\s"'`()=;:<>|&,$]+/).map((word) => word.replace(/^\.\//, "")));
  return files.filter((file) => words.has(file));
}

/** A checker's name: a script the scorer calls to compare, never one to improve. */
export function isChecker(file: string): boolean {
  return /(^|\/)(check|checker|verify|judge|grade|grader|compare|expected)[^/]*$/.test(file);
}

/** Whether a path is code at all, by its extension. */
export function isCode(file: string): boolean {
  return CODE.test(file);
}
