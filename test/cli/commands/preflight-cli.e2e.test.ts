import { spawn } from "node:child_process";
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { runValidate } from "../../../src/cli/commands/validate.js";
import { BASE_RUN_PREFIX } from "../../../src/adapters/verifier/base-run.js";
import { FIXTURES, ORG_BIN, runOrg } from "../../helpers/org-cli.js";
import { pollUntil } from "../../helpers/poll.js";
import { git, writeFiles } from "../../helpers/temp-repo.js";
import { createTestOrg, teardownOrg, type TestOrg, tmux } from "../../helpers/test-org/index.js";

// A user's repo: train.sh reads its constants from params.sh and prints its loss; prepare.sh is the fixed part.
const FILES = {
  "params.sh": "LR=0.01\n",
  "train.sh": '. ./params.sh\necho "lr: $LR"\necho "loss: 1.339393"\n',
  "prepare.sh": "# fixed\n",
};
const orgYaml =
  (opts: { pattern?: string; metric?: string; edits?: string; extra?: string; verify?: string } = {}) =>
  (name: string) => `name: ${name}
gpus: none
runtimes:
  hill: { builtin: hillclimb }
roles:
  researcher: { prompt: prompts/researcher.md, runtime: hill, edits: ${opts.edits ?? "[params.sh]"} }
${opts.extra ?? ""}verify:
  command: [sh, train.sh]
  protected: [prepare.sh]
  metric: { name: ${opts.metric ?? "loss"}, pattern: '${opts.pattern ?? "^loss: ([0-9.]+)"}' }
  repeats: 1
${opts.verify ?? ""}`;

let org: TestOrg | undefined;
afterEach(() => {
  teardownOrg(org);
  org = undefined;
});

const noGpu = { probe: async () => ({ error: "nvidia-smi not found on PATH" }) };

async function validateRun(dir: string, json = false): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runValidate(
    { cwd: dir, run: true, json },
    { out: (line) => out.push(line), err: (line) => err.push(line) },
    undefined,
    noGpu,
  );
  return { code, out, err };
}

/** Every file but .git's with its content and mtime, the branches and the temp folders of `validate --run`. */
function snapshot(dir: string): unknown {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    if (name === ".git" || name.startsWith(".git/")) continue;
    const stat = statSync(join(dir, name));
    files[name] = stat.isDirectory() ? "dir" : `${stat.mtimeMs} ${readFileSync(join(dir, name), "utf8")}`;
  }
  const scratch = readdirSync(tmpdir()).filter((entry) => entry.startsWith(BASE_RUN_PREFIX));
  return { files, branches: git(dir, ["branch", "--list"]), status: git(dir, ["status", "--porcelain"]), scratch };
}

/** `org up` refused: nothing made (no state, worktree, branch) and no tmux server. */
function expectNothingStarted(dir: string, socket: string, before: unknown): void {
  expect(snapshot(dir)).toEqual(before);
  expect(existsSync(join(dir, "state"))).toBe(false);
  expect(tmux(socket, ["has-session"]).code).not.toBe(0);
}

describe("org validate --run: the verify command once on the base", () => {
  test("a good repo: the metric the pattern reads, and nothing left behind", async () => {
    org = createTestOrg({ yaml: orgYaml(), files: FILES });
    const before = snapshot(org.dir);
    const result = await validateRun(org.dir);
    const sha = git(org.dir, ["rev-parse", "--short=7", "main"]).trim();
    expect(result).toMatchObject({ code: 0, err: [] });
    expect(result.out.slice(0, 2)).toEqual([
      "org.yaml is valid: 1 role, 1 agent, runtime hill",
      `running sh train.sh once on base main (${sha}) in a clean checkout (timeout 10m)…`,
    ]);
    expect(result.out[2]).toMatch(
      /^verify run on the base: exit 0 after \d+\.\d s; metric loss = 1\.339393 \(from "loss: 1\.339393"\)$/,
    );
    expect(snapshot(org.dir)).toEqual(before);
    const json = await validateRun(org.dir, true);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out.join("\n"))).toMatchObject({ valid: true, warnings: [], run: { ok: true, err: [] } });
  });

  test("a metric pattern that never matches: the run's last lines and a pattern that reads them", async () => {
    const budgets = "  budgets: { seconds: { pattern: '^seconds: ([0-9.]+)' }, lr: { pattern: '^LR=(.*)' } }\n";
    org = createTestOrg({
      yaml: orgYaml({ metric: "val_loss", pattern: "^val_loss: ([0-9.]+)", verify: budgets }),
      files: FILES,
    });
    const before = snapshot(org.dir);
    const result = await validateRun(org.dir);
    expect(result.code).toBe(1);
    expect(result.err).toEqual([
      "org.yaml:10:38: verify.metric.pattern '^val_loss: ([0-9.]+)' matched no line of the run's output, " +
        "so every run would be a crash"
        + " — set pattern: '^loss:\\s*([0-9.]+)', which reads 1.339393 from \"loss: 1.339393\"",
      // A budget's proposal must name it: `loss` is no reading of seconds.
      "org.yaml:12:34: verify.budgets.seconds.pattern '^seconds: ([0-9.]+)' matched no line of the run's output, " +
        "so every run would be a crash"
        + " — print it on a line such as \"seconds: 0.123\", or change the pattern to match a line below",
      "org.yaml:12:74: verify.budgets.lr.pattern '^LR=(.*)' matched no line of the run's output, " +
        "so every run would be a crash"
        + " — set pattern: '^lr:\\s*([0-9.]+)', which reads 0.01 from \"lr: 0.01\"",
      "last lines of the run's output:",
      "  | lr: 0.01",
      "  | loss: 1.339393",
    ]);
    expect(snapshot(org.dir)).toEqual(before);
    const json = await validateRun(org.dir, true);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out.join("\n"))).toMatchObject({ valid: true, run: { ok: false } });
  });

  test("uncommitted changes: named with the commit the run and the agents use, which is what runs", async () => {
    org = createTestOrg({ yaml: orgYaml({ metric: "lr", pattern: "^lr: ([0-9.]+)" }), files: FILES });
    writeFileSync(join(org.dir, "params.sh"), "LR=0.03\n");
    const before = snapshot(org.dir);
    const sha = git(org.dir, ["rev-parse", "--short=7", "main"]).trim();
    const result = await validateRun(org.dir);
    expect(result.code).toBe(0);
    expect(result.err).toEqual([
      `warning: uncommitted changes to tracked files are left out: params.sh (modified) — ` +
        `the agents and verifier start from base main (${sha}) as committed; commit them to main to include them`,
    ]);
    expect(result.out[2]).toMatch(/; metric lr = 0\.01 \(from "lr: 0\.01"\)$/);
    expect(snapshot(org.dir)).toEqual(before);
  });

  test("a run past verify.timeout is killed with its process group, and says so", async () => {
    const files = { ...FILES, "train.sh": 'echo "starting"\nsleep 37.4521 &\nwait\n' };
    org = createTestOrg({ yaml: orgYaml({ verify: "  timeout: 1s\n" }), files });
    const before = snapshot(org.dir);
    const result = await validateRun(org.dir);
    expect(result.code).toBe(1);
    expect(result.err[0]).toMatch(
      new RegExp(
        /^org\.yaml:8:12: the verify command was killed at verify\.timeout \(1s\) after \d+\.\d s on the base /.source +
        /— the verifier records such a base as a crash and judges nothing: make it run \(output below\)$/.source,
      ),
    );
    expect(result.err.slice(1)).toEqual(["last lines of the run's output:", "  | starting"]);
    expect(git(org.dir, ["status", "--porcelain"])).toBe("");
    expect(listProcesses().filter((args) => args.includes("sleep 37.4521"))).toEqual([]);
    expect(snapshot(org.dir)).toEqual(before);
  });

  test("Ctrl-C stops the run and its process group; nothing of it is left", async () => {
    const files = { ...FILES, "train.sh": 'echo "starting"\nsleep 38.7713 &\nwait\n' };
    org = createTestOrg({ yaml: orgYaml(), files });
    const before = snapshot(org.dir);
    const child = spawn(process.execPath, [ORG_BIN, "validate", "--run"], {
      cwd: org.dir,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    await pollUntil(() => listProcesses().some((args) => args.includes("sleep 38.7713")), {
      what: "the verify run's sleep",
    });
    child.kill("SIGINT");
    expect(await exited).toBe(1);
    expect(stderr).toBe("org: interrupted: the verify run was stopped, and nothing is left of it\n");
    await pollUntil(() => !listProcesses().some((args) => args.includes("sleep 38.7713")), {
      what: "no sleep left",
      timeoutMs: 5000,
    });
    expect(snapshot(org.dir)).toEqual(before);
  });
});

describe("org up's pre-flight refuses a repo that cannot work, before anything is made", () => {
  test("edits and protected globs that match no file at the base: every one at once, with the fix", () => {
    org = createTestOrg({
      yaml: orgYaml({ edits: "[params.py, \"src/**/*.sh\"]" }),
      files: { "params.sh": FILES["params.sh"], "train.sh": FILES["train.sh"] },
    });
    const sha = git(org.dir, ["rev-parse", "--short=7", "main"]).trim();
    const before = snapshot(org.dir);
    const up = runOrg(["up", "--no-attach"], { cwd: org.dir });
    expect(up.code).toBe(1);
    expect(up.stderr.trim().split("\n")).toEqual([
      `org.yaml:6:71: roles.researcher.edits[0] "params.py" matches no file at base main (${sha}) — ` +
        `did you mean "params.sh"?`,
      `org.yaml:6:82: roles.researcher.edits[1] "src/**/*.sh" matches no file at base main (${sha}) — fix the glob, ` +
        `or commit a file it matches (\`git ls-tree -r --name-only main\` lists them)`,
      `org.yaml:9:15: verify.protected[0] "prepare.sh" matches no file at base main (${sha}) — ` +
        `did you mean "prepare.py"?`,
    ]);
    expectNothingStarted(org.dir, org.socket, before);
  });

  test("an agent command in the repo folder but not in the commit", () => {
    const extra = "  bot: { prompt: prompts/researcher.md, runtime: bot }\n";
    org = createTestOrg({
      yaml: (name) =>
        orgYaml({ extra })(name).replace("runtimes:\n", "runtimes:\n  bot: { command: [./agents/bot.sh] }\n"),
      files: FILES,
    });
    writeFiles(org.dir, { "agents/bot.sh": "#!/bin/sh\nsleep 600\n" });
    chmodSync(join(org.dir, "agents/bot.sh"), 0o755);
    const sha = git(org.dir, ["rev-parse", "--short=7", "main"]).trim();
    const before = snapshot(org.dir);
    const up = runOrg(["up", "--no-attach"], { cwd: org.dir });
    expect(up.code).toBe(1);
    expect(up.stderr.trim().split("\n")).toEqual([
      `org.yaml:4:20: runtimes.bot.command[0] "./agents/bot.sh" is in the repo folder but not at base main (${sha}), ` +
        `which the agents' worktrees hold — commit it (git add agents/bot.sh && git commit), or list it under share:`,
    ]);
    expectNothingStarted(org.dir, org.socket, before);
  });

  test("gpus: [0, 1] on a machine with no GPU is an error naming the key, though no role holds a GPU", () => {
    org = createTestOrg({ yaml: (name) => orgYaml()(name).replace("gpus: none", "gpus: [0, 1]"), files: FILES });
    const before = snapshot(org.dir);
    const up = runOrg(["up", "--no-attach"], {
      cwd: org.dir,
      env: { PATH: `${FIXTURES}/gpu:${process.env.PATH}`, FAKE_NVIDIA_SMI_FAIL: "1" },
    });
    expect(up.code).toBe(1);
    expect(up.stderr.trim().split("\n")).toEqual([
      "org.yaml:2:7: gpus lists GPUs 0, 1 but this machine has none (nvidia-smi exited 9: " +
        "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.) — set gpus: " +
        "none to run on the CPU, or gpus: auto to take what nvidia-smi finds",
    ]);
    expectNothingStarted(org.dir, org.socket, before);
  });
});

describe("org up's pre-flight warns of uncommitted changes and starts the org on the commit", () => {
  test("the warning names each file and the base; the agents' worktrees hold the committed file", () => {
    org = createTestOrg({ yaml: orgYaml(), files: FILES });
    writeFileSync(join(org.dir, "params.sh"), "LR=0.03\n");
    const sha = git(org.dir, ["rev-parse", "--short=7", "main"]).trim();
    const up = runOrg(["up", "--no-attach"], { cwd: org.dir });
    expect(up.code, up.stderr).toBe(0);
    expect(up.stderr.split("\n")).toContain(
      `warning: uncommitted changes to tracked files are left out: params.sh (modified) — ` +
        `the agents and verifier start from base main (${sha}) as committed; commit them to main to include them`,
    );
    expect(readFileSync(join(org.dir, "worktrees/researcher-1/params.sh"), "utf8")).toBe("LR=0.01\n");
    expect(readFileSync(join(org.dir, "params.sh"), "utf8")).toBe("LR=0.03\n");
  });
});

function listProcesses(): string[] {
  return readdirSync("/proc").filter((entry) => /^\d+$/.test(entry)).map((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ").trim();
    } catch {
      return "";
    }
  });
}
