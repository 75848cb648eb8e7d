import { describe, expect, test } from "vitest";
import { pickFilesToRead, proposeOrg, type RepoListing } from "../../../src/domain/init/index.js";
import { BASH_SCORER, NODE_BENCH, PYTHON_TRAIN } from "../../fixtures/init-repos.js";

/** The listing the adapter would read of a repo holding `files` at HEAD, on a machine with `machine`. */
function listing(files: Record<string, string>, machine: Partial<RepoListing> = {}): RepoListing {
  const paths = Object.keys(files);
  const texts = Object.fromEntries(pickFilesToRead(paths).map((path) => [path, files[path]!]));
  const programs = ["python3", "node", "npm", "bash"];
  return {
    folder: "my repo!", base: "main", files: paths, untracked: [], texts, programs, gpus: 0,
    gpuNote: "nvidia-smi not found on PATH", ...machine,
  };
}

describe("org init's guess of a repo", () => {
  test("a Python train.py with prepare.py: the autoresearch layout, its metric and goal from the print", () => {
    const { fields, project, checks, why } = proposeOrg(listing(PYTHON_TRAIN));
    expect(project.kind).toBe("python-train");
    expect(fields).toMatchObject({
      name: "my-repo", base: "main", gpus: "none", runtime: "hillclimb", count: 2, gpu: false,
      command: ["python3", "train.py"], edits: ["train.py"], protected: ["prepare.py"],
      metric: {
        name: "val_loss", pattern: "^val_loss:\\s*([-+0-9.eE]+)", goal: "minimize",
        note: "guessed: train.py prints val_loss (it also prints training_seconds); minimize by its name.",
      },
    });
    expect(fields.runtimeNote).toBe("guessed: no agent CLI (claude, codex, gemini, opencode) is on PATH: "
      + "the built-in baseline, which tunes the UPPER_CASE number constants of train.py.");
    expect(checks).toEqual([]);
    expect(why).toEqual({ runtime: "no agent CLI on PATH", gpus: "CPU mode: nvidia-smi not found on PATH" });
  });

  test("a Node project with npm test and a bench script: tests before the benchmark, "
    + "which is protected with them", () => {
    const { fields, project, checks } = proposeOrg(listing(NODE_BENCH));
    expect(project.kind).toBe("npm-bench");
    expect(fields).toMatchObject({
      command: ["sh", "-c", "npm test --silent && npm run --silent bench"],
      edits: ["src/sort.mjs"], protected: ["package.json", "bench", "test"],
      metric: { name: "comparisons", pattern: "^comparisons:\\s*([-+0-9.eE]+)", goal: "" },
    });
    expect(checks).toEqual([
      "verify.metric.goal: is a higher comparisons better? — write maximize, or minimize for lower",
    ]);
  });

  test("a bash scorer: the code it runs is the edit, it and its data are protected", () => {
    const { fields, project, checks } = proposeOrg(listing(BASH_SCORER));
    expect(project.kind).toBe("scorer");
    expect(fields).toMatchObject({
      command: ["bash", "score.sh"], edits: ["solve.py"], protected: ["score.sh", "data/points.txt", "data/labels.txt"],
      metric: { name: "accuracy", pattern: "^accuracy:\\s*([-+0-9.eE]+)", goal: "maximize" },
    });
    expect(fields.editsNote).toBe("guessed: score.sh runs it.");
    expect(checks).toEqual([]);
  });

  test("a Makefile with test and bench targets, and train.mjs with prepare.mjs", () => {
    const make = proposeOrg(listing({
      Makefile: "test:\n\tnode --test\n\nbench: build\n\tnode perf/run.js\n",
      "perf/run.js": "console.log(`ops_per_sec=${n}`);\n",
      "lib/a.js": "export const A = 1;\n",
    }));
    expect(make.project.kind).toBe("make-bench");
    expect(make.fields).toMatchObject({
      command: ["sh", "-c", "make -s test && make -s bench"], edits: ["lib/a.js"], protected: ["Makefile", "perf"],
      metric: { name: "ops_per_sec", pattern: "^ops_per_sec=\\s*([-+0-9.eE]+)", goal: "maximize" },
    });
    const node = proposeOrg(
      listing({ "train.mjs": "const LR = 0.1;\nconsole.log(`val_loss: ${x}`);\n", "prepare.mjs": "" }),
    );
    expect(node.fields).toMatchObject({
      command: ["node", "train.mjs"], edits: ["train.mjs"], protected: ["prepare.mjs"], metric: { name: "val_loss" },
    });
  });

  test("agent CLIs on PATH: the first found runs the role, hillclimb stays one word away", () => {
    const { fields, why } = proposeOrg(listing(PYTHON_TRAIN, { programs: ["codex", "gemini", "python3"] }));
    expect(fields.runtime).toBe("codex");
    expect(fields.runtimes).toEqual([
      "codex: { preset: codex }",
      "hillclimb: { builtin: hillclimb, restart: on-failure }   # needs no API: tunes constants",
    ]);
    expect(fields.runtimeNote).toBe(
      "guessed: codex is on PATH (also: gemini). Write hillclimb here to try the org without a model API.",
    );
    expect(why.runtime).toBe("found on PATH");
    const root = proposeOrg(listing(PYTHON_TRAIN, { programs: ["claude"], root: true })).fields;
    expect(root.runtimes[0]).toBe('claude: { preset: claude, env: { IS_SANDBOX: "1" } }   # as root, claude needs it');
  });

  test("GPUs: a Python trainer gets one each (at most 8); uv runs a uv project; "
    + "untracked node_modules is shared", () => {
    const machine = { gpus: 12, programs: ["uv"], untracked: ["node_modules", ".venv"] };
    const { fields } = proposeOrg(listing({ ...PYTHON_TRAIN, "uv.lock": "" }, machine));
    expect(fields).toMatchObject({
      gpus: "auto", gpu: true, count: 8, command: ["uv", "run", "train.py"], share: ["node_modules", ".venv"],
    });
    expect(fields.gpusNote).toBe("guessed: nvidia-smi lists 12 GPUs; auto leases them all.");
    expect(proposeOrg(listing(NODE_BENCH, { gpus: 2 })).fields).toMatchObject({ gpus: "auto", gpu: false, count: 2 });
  });

  test("many code files are edited by folder; the file with constants comes first for the built-in baseline", () => {
    const files = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`src/m${i}.js`, ""]));
    const few = proposeOrg(listing({
      "score.sh": "echo score: 1\n", "a.py": "", "b.py": "WIDTH = 3\n", "tests/test_a.py": "",
    }));
    expect(few.fields.edits).toEqual(["b.py", "a.py"]);
    expect(few.fields.protected).toEqual(["score.sh", "tests"]);
    const many = proposeOrg(listing({ ...files, "eval.py": "print(f'score: {s}')\n", "main.py": "" }));
    expect(many.fields.edits).toEqual(["src/**", "main.py"]);
  });

  test("tests alone: the command runs them, and the metric is left to write", () => {
    const { fields, project, checks } = proposeOrg(
      listing({ "package.json": '{"scripts":{"test":"jest"}}', "index.js": "" }),
    );
    expect(project.kind).toBe("npm-test");
    expect(fields).toMatchObject({ command: ["npm", "test", "--silent"], metric: { name: "", pattern: "", goal: "" } });
    expect(checks).toEqual([
      "verify.metric: nothing here prints `name: value` — make the run print one line such as `score: 0.93`, "
        + "then write its name, pattern and goal",
      "roles.researcher.runtime: hillclimb has no constant to tune in index.js — install an agent CLI (claude, codex, "
        + "gemini, opencode) and write its name",
    ]);
  });

  test("nothing recognisable: every key it cannot guess is left empty, with what to write", () => {
    const npmDefault = JSON.stringify({ scripts: { test: 'echo "Error: no test specified" && exit 1' } });
    const { fields, project, checks } = proposeOrg(listing({ "README.md": "notes\n", "package.json": npmDefault }));
    const reason = "no train script, scorer, package.json benchmark or Makefile target was found";
    expect(project).toMatchObject({ kind: "unknown", reason });
    expect(fields).toMatchObject({
      command: [], edits: [], protected: [], metric: { name: "", pattern: "", goal: "" },
    });
    expect(fields.commandNote).toBe(
      "fill in: the argv that runs one experiment and prints its metric, e.g. [python3, train.py].",
    );
    expect(checks).toEqual([
      "verify.command: no train script, scorer, package.json benchmark or Makefile target was found — "
        + "write the argv that runs one experiment and prints its metric",
      "verify.metric: nothing here prints `name: value` — make the run print one line such as `score: 0.93`, "
        + "then write its name, pattern and goal",
      "roles.researcher.edits: no code file found — list the files agents may change",
      "roles.researcher.runtime: hillclimb has no constant to tune in edits — install an agent CLI (claude, codex, "
        + "gemini, opencode) and write its name",
    ]);
  });

  test("a train.py with no evaluation of its own: nothing protected, and the check says why that matters", () => {
    const train = "LR = 0.1\nprint(f'loss: {l}')\nprint(f'seed: {s}')\n";
    const { fields, checks } = proposeOrg(listing({ "train.py": train }, { folder: "---" }));
    expect(fields).toMatchObject({ name: "research", protected: [], metric: { name: "loss", goal: "minimize" } });
    expect(checks).toEqual([
      "verify.protected is empty: train.py both runs and prints loss, so an agent could print any number — "
        + "move the scoring into a file of its own and list it",
    ]);
  });
});
