import { describe, expect, test } from "vitest";
import { ConfigSchema } from "../../../src/domain/config/index.js";
import { checkRepo, readMetricRun, type BaseTree } from "../../../src/domain/preflight/index.js";
import { normalizeDefaults } from "../../../src/domain/config/normalize.js";

const SHA = "1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b";
const tree: BaseTree = {
  base: "main", commit: SHA,
  files: ["train.mjs", "prepare.mjs", "score.sh", "lib/util.py", "org.yaml", "prompts/researcher.md"],
  executables: ["score.sh"],
};
const parse = (raw: Record<string, unknown>) => normalizeDefaults(ConfigSchema.parse({
  runtimes: { bot: { command: ["node", "agents/bot.mjs"] } },
  roles: { researcher: { prompt: "prompts/researcher.md", runtime: "hillclimb", edits: ["train.mjs"] } },
  ...raw,
}));
const hill = { hillclimb: { builtin: "hillclimb" } };
const check = (raw: Record<string, unknown>, facts: Partial<Parameters<typeof checkRepo>[1]> = {}) =>
  checkRepo(parse({ runtimes: hill, ...raw }), { tree, onDisk: new Set(), dirty: [], ownFiles: [], ...facts });

describe("pre-flight of the repo at its base", () => {
  test("a good repo: no problem and no warning", () => {
    const verify = {
      command: ["sh", "score.sh"],
      protected: ["prepare.mjs"],
      metric: { name: "loss", pattern: "^loss: (.*)" },
    };
    expect(check({ verify })).toEqual({ problems: [], warnings: [] });
  });

  test("edits: a near miss or a glob that matches no file is an error; "
    + "a plain new file is a warning; meta files pass", () => {
    const roles = {
      researcher: { prompt: "prompts/researcher.md", runtime: "hillclimb", edits: ["train.js", "src/**/*.py"] },
      chief: { prompt: "prompts/researcher.md", runtime: "hillclimb", edits: ["plan.md"] },
      meta: { prompt: "prompts/researcher.md", runtime: "hillclimb", edits: ["org.yaml", "prompts/**"] },
    };
    const base = "base main (1a2b3c4)";
    expect(check({ roles })).toEqual({
      problems: [
        {
          path: ["roles", "researcher", "edits", 0],
          message: `roles.researcher.edits[0] "train.js" matches no file at ${base}`,
          fix: 'did you mean "train.mjs"?',
        },
        {
          path: ["roles", "researcher", "edits", 1],
          message: `roles.researcher.edits[1] "src/**/*.py" matches no file at ${base}`,
          fix: "fix the glob, or commit a file it matches (`git ls-tree -r --name-only main` lists them)",
        },
      ],
      warnings: [{
        path: ["roles", "chief", "edits", 0], message: `roles.chief.edits[0] "plan.md" matches no file at ${base}`,
        fix: "its agents can only create it; if it is a typo, name a file of the commit",
      }],
    });
  });

  test("protected: a rule that matches no file protects nothing", () => {
    const verify = {
      command: ["sh", "score.sh"],
      protected: ["prepare.py", "eval/"],
      metric: { name: "loss", pattern: "(.*)" },
    };
    expect(check({ verify }).problems.map((problem) => `${problem.message} — ${problem.fix}`)).toEqual([
      'verify.protected[0] "prepare.py" matches no file at base main (1a2b3c4) — did you mean "prepare.mjs"?',
      'verify.protected[1] "eval/" matches no file at base main (1a2b3c4) — it protects nothing: fix the path, '
        + 'commit the file, or remove it (`git ls-tree -r --name-only main` lists them)',
    ]);
  });

  test("commands: an uncommitted agent program, a misnamed verify script, "
    + "a program not executable in the commit", () => {
    const runtimes = {
      bot: { command: ["./agents/bot.sh", "--model", "openai/gpt-5", "{kickoff}"] },
      tool: { command: ["lib/util.py"] },
    };
    const roles = { a: { prompt: "p.md", runtime: "bot" }, b: { prompt: "p.md", runtime: "tool" } };
    const verify = { command: ["node", "train.js", "{seed}"], metric: { name: "loss", pattern: "(.*)" } };
    const found = check({ runtimes, roles, verify }, { onDisk: new Set(["agents/bot.sh"]) });
    expect(found.problems.map((problem) => `${problem.message} — ${problem.fix}`)).toEqual([
      'runtimes.bot.command[0] "./agents/bot.sh" is in the repo folder but not at base main (1a2b3c4), '
        + 'which the agents\' worktrees hold — '
        + 'commit it (git add agents/bot.sh && git commit), or list it under share:',
      'runtimes.tool.command[0] "lib/util.py" is not executable at base main (1a2b3c4) — '
        + 'git update-index --chmod=+x lib/util.py, then commit',
      'verify.command[1] "train.js" does not exist at base main (1a2b3c4) — did you mean "train.mjs"?',
    ]);
    const uncommitted = check({
      verify: { command: ["python", "eval/run.py"], metric: { name: "loss", pattern: "(.*)" } },
    }, { onDisk: new Set(["eval/run.py"]) });
    expect(uncommitted.problems.map((problem) => problem.message)).toEqual([
      'verify.command[1] "eval/run.py" is in the repo folder but not at base main (1a2b3c4), '
        + 'which the verifier\'s checkouts hold',
    ]);
    // An agent program on no disk at all is left to the missing-programs check, which gives its install command.
    expect(check({ runtimes, roles: { a: roles.a } }).problems).toEqual([]);
    // What share: brings into every worktree needs no commit.
    expect(
      check({ runtimes, roles: { a: roles.a }, share: ["agents"] }, { onDisk: new Set(["agents/bot.sh"]) }).problems,
    ).toEqual([]);
  });

  test("an explicit GPU list must be on this machine, whatever the roles hold; "
    + "auto, none and Slurm are not asked", () => {
    type Probed = Parameters<typeof checkRepo>[1]["gpus"];
    const messages = (gpus: unknown, probed: Probed, raw: Record<string, unknown> = {}) =>
      check({ gpus, ...raw }, { gpus: probed }).problems.map((problem) => `${problem.message} — ${problem.fix}`);
    expect(messages([0, 1], { error: "nvidia-smi not found on PATH" })).toEqual([
      "gpus lists GPUs 0, 1 but this machine has none (nvidia-smi not found on PATH) — "
        + "set gpus: none to run on the CPU, or gpus: auto to take what nvidia-smi finds",
    ]);
    const gpu0 = [{ index: 0, uuid: "GPU-0", name: "H100", memoryUsedMb: 1, memoryTotalMb: 80000 }];
    expect(messages([0, 1], gpu0)).toEqual([
      "gpus lists GPU 1 that nvidia-smi does not show (it lists 0) — list only GPUs of this machine, e.g. "
        + "gpus: [0], or set gpus: auto",
    ]);
    expect(messages([0], gpu0)).toEqual([]);
    expect(messages("auto", { error: "x" })).toEqual([]);
    expect(messages([0, 1], { error: "x" }, { backend: "slurm" })).toEqual([]);
  });

  test("uncommitted changes to tracked files: named, with the base the agents start from; "
    + "org's own files left aside", () => {
    const dirty = [
      { path: "train.mjs", status: " M" },
      { path: "old.py", status: " D" },
      { path: "org.yaml", status: " M" },
    ];
    expect(check({}, { dirty, ownFiles: ["org.yaml", "prompts/researcher.md"] }).dirty).toBe(
      "uncommitted changes to tracked files are left out: train.mjs (modified), old.py (deleted) — "
        + "the agents and verifier start from base main (1a2b3c4) as committed; commit them to main to include them",
    );
    expect(check({}, { dirty: [{ path: "org.yaml", status: "M " }], ownFiles: ["org.yaml"] }).dirty).toBeUndefined();
  });
});

describe("what one run's log says about the metric pattern", () => {
  const metric = { name: "val_bpb", pattern: "^val_bpb:\\s*([0-9.]+)" };
  test("matched: the last matching line's number, as the verifier reads it", () => {
    expect(readMetricRun("val_bpb: 1.5\nval_bpb: 1.25\n", metric)).toEqual({
      kind: "matched",
      value: 1.25,
      line: "val_bpb: 1.25",
    });
    expect(readMetricRun("val_bpb: nan\n", { ...metric, pattern: "^val_bpb: (.*)" })).toEqual({
      kind: "not-a-number",
      line: "val_bpb: nan",
    });
  });

  test("unmatched: the last lines and a pattern that reads the log's last `name: number` line", () => {
    const log = "epoch 1\nloss: 1.5\nepoch 2\nloss: 1.339393\ndone\n";
    expect(readMetricRun(log, metric)).toEqual({
      kind: "unmatched", tail: ["epoch 1", "loss: 1.5", "epoch 2", "loss: 1.339393", "done"],
      proposal: { pattern: "^loss:\\s*([0-9.]+)", line: "loss: 1.339393", value: 1.339393 },
    });
    // A line naming the metric wins over a later one; `=` and a signed exponent are read too.
    expect(readMetricRun("  val_bpb = -1.5e-3\nsteps: 10\n", metric)).toMatchObject({
      proposal: { pattern: "^\\s*val_bpb\\s*=\\s*([-+0-9.eE]+)", value: -0.0015 },
    });
    expect(readMetricRun("Traceback (most recent call last)\nValueError: bad\n", metric)).toEqual({
      kind: "unmatched", tail: ["Traceback (most recent call last)", "ValueError: bad"],
    });
  });
});
