import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { runOrg } from "../../helpers/org-cli.js";
import { createRepo, git, makeTempDir, removeDir } from "../../helpers/temp-repo.js";
import { BASH_SCORER, NODE_BENCH, PYTHON_TRAIN } from "../../fixtures/init-repos.js";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

// A PATH holding git alone: no agent CLI, no nvidia-smi, whatever this machine has installed.
function gitOnlyPath(): string {
  const bin = makeTempDir("org-init-bin-");
  dirs.push(bin);
  const found = (process.env.PATH ?? "").split(":").map((dir) => join(dir, "git")).find((path) => existsSync(path));
  symlinkSync(found!, join(bin, "git"));
  return bin;
}

function org(args: string[], cwd: string, path: string) {
  return runOrg(args, { cwd, env: { PATH: path } });
}

const VALID = { code: 0, stdout: "org.yaml is valid: 1 role, 2 agents, runtime hillclimb\n", stderr: "" };

describe("org init on a repo of one's own", () => {
  test("a Python trainer, a Node benchmark and a bash scorer each init to an org.yaml that validates", () => {
    const path = gitOnlyPath();
    const python = createRepo(PYTHON_TRAIN);
    const node = createRepo(NODE_BENCH);
    const scorer = createRepo(BASH_SCORER);
    dirs.push(python, node, scorer);
    const init = org(["init"], python, path);
    expect(init).toMatchObject({ code: 0, stderr: "" });
    expect(init.stdout.split("\n").slice(0, 8)).toEqual([
      "wrote org.yaml and prompts/researcher.md",
      "read the repo: train.py trains and prepare.py evaluates (the autoresearch layout)",
      "  verify    python3 train.py — metric val_loss (minimize)",
      "  edits     train.py",
      "  protected prepare.py",
      "  runtime   hillclimb (no agent CLI on PATH), 2 agents",
      "  gpus      none (CPU mode: nvidia-smi not found on PATH)",
      "next: read org.yaml (each guess says why), check it with `org validate`, then start with `org up`",
    ]);
    expect(org(["validate"], python, path)).toEqual(VALID);
    expect(org(["init"], scorer, path).code).toBe(0);
    expect(org(["validate"], scorer, path)).toEqual(VALID);
    // The benchmark's direction is not in its name: validate names the one key left to write.
    expect(org(["init"], node, path).stdout).toContain(
      "check:\n  - verify.metric.goal: is a higher comparisons better? — write maximize, or minimize for lower\n",
    );
    expect(org(["validate"], node, path)).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "org.yaml:54:5: verify.metric.goal must be one of minimize, maximize, got nothing — " +
          "write minimize or maximize\n",
    });
    const written = readFileSync(join(node, "org.yaml"), "utf8");
    writeFileSync(join(node, "org.yaml"), written.replace(/^ {4}goal:$/m, "    goal: minimize"));
    expect(org(["validate"], node, path)).toEqual(VALID);
  });

  test("no repo, a repo with no commit, a subfolder: refused with the fix, and nothing written", () => {
    const path = gitOnlyPath();
    const plain = makeTempDir();
    const empty = makeTempDir();
    const repo = createRepo(PYTHON_TRAIN);
    dirs.push(plain, empty, repo);
    git(empty, ["init", "-q", "-b", "main"]);
    mkdirSync(join(repo, "sub"));
    expect(org(["init"], plain, path)).toEqual({
      code: 1,
      stdout: "",
      stderr: `${plain} is not a git repository — run \`git init\` and commit your code there, ` +
        `or run \`org init\` in your research repo\n`,
    });
    expect(org(["init"], empty, path)).toEqual({
      code: 1,
      stdout: "",
      stderr: `${empty} has no commit yet — commit your code first (\`git add -A && git commit -m start\`): ` +
        `every agent branches from a commit\n`,
    });
    expect(org(["init"], join(repo, "sub"), path)).toEqual({
      code: 1,
      stdout: "",
      stderr: `${join(repo, "sub")} is inside the git repo ${repo} — run \`org init\` at the repo's root: ` +
        `edits and verify are paths from there\n`,
    });
    expect([readdirSync(plain), readdirSync(empty), readdirSync(join(repo, "sub"))]).toEqual([[], [".git"], []]);
    expect(readdirSync(repo).sort()).toEqual([".git", "README.md", "prepare.py", "sub", "train.py"]);
  });

  test("nothing recognisable: a commented org.yaml, and validate names each key to write", () => {
    const path = gitOnlyPath();
    const repo = createRepo({ "README.md": "notes\n" });
    dirs.push(repo);
    expect(org(["init"], repo, path).code).toBe(0);
    expect(readFileSync(join(repo, "org.yaml"), "utf8")).toContain(
      "  # fill in: the argv that runs one experiment and prints its metric, e.g. [python3, train.py].\n  command: " +
        "[]\n",
    );
    expect(org(["validate"], repo, path)).toEqual({
      code: 1,
      stdout: "",
      stderr: [
        "org.yaml:45:12: verify.command must not be empty — write e.g. [python, train.py]",
        "org.yaml:50:5: verify.metric.name has no value — write e.g. val_bpb",
        "org.yaml:51:5: verify.metric.pattern has no value — write e.g. '^val_bpb:\\s*([0-9.]+)'",
        "org.yaml:52:5: verify.metric.goal must be one of minimize, maximize, got nothing — write minimize or maximize",
        "",
      ].join("\n"),
    });
  });
});
