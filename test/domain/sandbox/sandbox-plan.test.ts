import { describe, expect, test } from "vitest";
import { checkSandbox, decideSandbox, type SandboxProbe } from "../../../src/domain/sandbox/decide-sandbox.js";
import { planSandbox } from "../../../src/domain/sandbox/layout.js";
import { findUserFiles, parseAgentSandbox } from "../../../src/domain/sandbox/prepare-sandboxes.js";
import { decideOutboxRequest } from "../../../src/domain/sandbox/outbox-rules.js";
import { paneLaunch } from "../../../src/domain/lifecycle/supervise-step.js";
import { defaultSubmitArgv } from "../../../src/flows/builtin/hillclimb-world.js";
import { slurmPaneArgv } from "../../../src/domain/slurm/job-argv.js";

const works: SandboxProbe = { kind: "works", bwrap: "/usr/bin/bwrap" };
const missing: SandboxProbe = {
  kind: "unavailable",
  reason: "bwrap (bubblewrap) is not on PATH",
  fix: "install it: apt-get install bubblewrap (dnf install bubblewrap)",
};

const layout = {
  bwrap: "/usr/bin/bwrap", root: "/o", repo: "/o", worktrees: "/o/worktrees", worktree: "/o/worktrees/a-1",
  agentWritable: ["home", "own", "proposal", "outbox"].map((name) => `/o/state/agents/a-1/${name}`),
  outbox: "/o/state/agents/a-1/outbox", home: "/o/state/agents/a-1/home",
  git: { common: "/o/.git", worktreeDir: "/o/.git/worktrees/a-1", org: "t" },
  read: [], write: ["/o/data"], hideDirs: ["/tmp/tmux-1000"], maskFiles: [], step: false,
};

describe("the sandbox's plan", () => {
  test("no capabilities, the host read-only, a private /tmp, the org read-only, other worktrees gone, "
    + "then what the agent writes; later mounts win", () => {
    expect(planSandbox(layout).args).toEqual([
      "--die-with-parent", "--unshare-user", "--unshare-pid", "--cap-drop", "ALL",
      "--ro-bind", "/", "/", "--dev-bind", "/dev", "/dev", "--proc", "/proc",
      "--perms", "1777", "--tmpfs", "/tmp", "--perms", "1777", "--tmpfs", "/dev/shm",
      "--ro-bind", "/o", "/o", "--ro-bind", "/o/.git", "/o/.git",
      "--tmpfs", "/o/worktrees",
      "--bind", "/o/data", "/o/data",
      "--tmpfs", "/tmp/tmux-1000",
      "--bind", "/o/worktrees/a-1", "/o/worktrees/a-1",
      // state/agents/a-1 itself stays read-only: launch spec, status, events, pane log and inbox are the daemon's.
      "--bind", "/o/state/agents/a-1/home", "/o/state/agents/a-1/home",
      "--bind", "/o/state/agents/a-1/own", "/o/state/agents/a-1/own",
      "--bind", "/o/state/agents/a-1/proposal", "/o/state/agents/a-1/proposal",
      "--bind", "/o/state/agents/a-1/outbox", "/o/state/agents/a-1/outbox",
      "--bind", "/o/.git/objects", "/o/.git/objects", "--ro-bind", "/o/.git/objects/pack", "/o/.git/objects/pack",
      "--bind", "/o/.git/worktrees/a-1", "/o/.git/worktrees/a-1",
      "--ro-bind", "/o/.git/worktrees/a-1/config.worktree", "/o/.git/worktrees/a-1/config.worktree",
      "--bind", "/o/.git/refs/heads/org/t", "/o/.git/refs/heads/org/t",
      "--bind", "/o/.git/logs/refs/heads/org/t", "/o/.git/logs/refs/heads/org/t",
      "--ro-bind", "/o/.git/refs/heads/org/t/best", "/o/.git/refs/heads/org/t/best",
      "--ro-bind", "/o/.git/refs/heads/org/t/b-best", "/o/.git/refs/heads/org/t/b-best",
      "--remount-ro", "/tmp/tmux-1000", "--remount-ro", "/o/worktrees",
      "--chdir", "/o/worktrees/a-1",
      "--setenv", "GIT_CONFIG_COUNT", "2", "--setenv", "GIT_CONFIG_KEY_0", "gc.auto",
      "--setenv", "GIT_CONFIG_VALUE_0", "0",
      "--setenv", "GIT_CONFIG_KEY_1", "maintenance.auto", "--setenv", "GIT_CONFIG_VALUE_1", "false",
      "--setenv", "HOME", "/o/state/agents/a-1/home", "--setenv", "TMPDIR", "/tmp",
      "--setenv", "ORG_OUTBOX", "/o/state/agents/a-1/outbox",
    ]);
  });

  test("the agent's HOME is its own folder; the user's home, read-only, shows again over the private /tmp where it "
    + "lies there; their git config is the agent's global one", async () => {
    const args = planSandbox({ ...layout, tmpHome: "/tmp/h", gitConfig: "/tmp/h/.gitconfig" }).args;
    expect(args.slice(21, 27)).toEqual(["--ro-bind", "/tmp/h", "/tmp/h", "--ro-bind", "/o", "/o"]);
    expect(args.slice(-12, -3)).toEqual([
      "--setenv", "HOME", "/o/state/agents/a-1/home", "--setenv", "TMPDIR", "/tmp", "--setenv", "GIT_CONFIG_GLOBAL",
      "/tmp/h/.gitconfig",
    ]);
    const exists = (present: string[]) => ({
      files: { exists: async (path: string) => present.includes(path) },
    }) as unknown as Parameters<typeof findUserFiles>[0];
    expect(await findUserFiles(exists(["/tmp/h", "/tmp/h/.gitconfig", "/tmp/h/.config/git/config"]), "/tmp/h")).toEqual(
      { tmpHome: "/tmp/h", gitConfig: "/tmp/h/.gitconfig" },
    );
    expect(await findUserFiles(exists(["/home/u", "/home/u/.config/git/config"]), "/home/u")).toEqual({
      gitConfig: "/home/u/.config/git/config",
    });
    expect(await findUserFiles(exists(["/home/u"]), "/home/u")).toEqual({});
    expect(await findUserFiles(exists(["/tmp", "/tmp/.gitconfig"]), "/tmp")).toEqual({ gitConfig: "/tmp/.gitconfig" });
    expect(await findUserFiles(exists([]), "/nonexistent")).toEqual({});
    expect(await findUserFiles(exists(["/"]), "")).toEqual({});
  });

  test("a read or write entry over a hidden folder shows it not: the hides come after every entry", () => {
    const args = planSandbox({
      ...layout, read: ["/tmp"], write: ["/run"], hideDirs: ["/tmp/tmux-0"], maskFiles: ["/run/pty.sock"],
    }).args;
    const at = (...mount: string[]) => args.findIndex((_, i) => mount.every((part, j) => args[i + j] === part));
    expect(at("--ro-bind", "/tmp", "/tmp")).toBeLessThan(at("--tmpfs", "/tmp/tmux-0"));
    expect(at("--bind", "/run", "/run")).toBeLessThan(at("--ro-bind", "/dev/null", "/run/pty.sock"));
  });

  test("the pane runs bwrap with the launch's environment set inside; only secrets ride the pane's own", () => {
    const sandbox = { bwrap: "/usr/bin/bwrap", args: ["--die-with-parent"] };
    expect(paneLaunch(
      { argv: ["claude", "$(id)"], cwd: "/w", env: { PATH: "/s/bin:/usr/bin", LD_PRELOAD: "/w/evil.so" } },
      { ANTHROPIC_API_KEY: "k" },
      sandbox,
    )).toEqual({
      argv: [
        "/usr/bin/bwrap", "--setenv", "PATH", "/s/bin:/usr/bin", "--setenv", "LD_PRELOAD", "/w/evil.so",
        "--die-with-parent", "--", "/bin/sh", "-c", 'exec "$0" "$@"', "claude", "$(id)",
      ],
      cwd: "/w",
      env: { ANTHROPIC_API_KEY: "k" },
    });
  });

  test("a Slurm job agent: its pane (org slurm-run) unsandboxed; on the node, bwrap around the step where it works, "
    + "its org polling the outbox", () => {
    const sandbox = planSandbox({ ...layout, step: true });
    expect(sandbox.step).toBe(true);
    expect(sandbox.args.slice(-2)).toEqual(["ORG_OUTBOX_POLL", "1"]);
    const launch = {
      argv: ["/node", "/pkg/bin/org.js", "slurm-run", "a-1"],
      cwd: "/o/worktrees/a-1",
      env: { ORG_AGENT: "a-1" },
    };
    expect(paneLaunch(launch, {}, sandbox).argv).toEqual(["/bin/sh", "-c", 'exec "$0" "$@"', ...launch.argv]);
    const step = slurmPaneArgv("42", { argv: ["claude", "--go"], cwd: "/o/worktrees/a-1" }, {
      args: ["--die-with-parent"],
    });
    expect(step.slice(0, 6)).toEqual([
      "srun", "--jobid=42", "--overlap", "--pty", "--quiet", "--chdir=/o/worktrees/a-1",
    ]);
    expect(step.slice(6, 8)).toEqual(["/bin/sh", "-c"]);
    expect(step.slice(9)).toEqual(["org-sandbox", "--die-with-parent", "--", "claude", "--go"]);
    expect(step[8]).toContain("no working bwrap on $(hostname): this agent runs WITHOUT a sandbox");
  });

  test("on by default where bwrap works; off by choice; a warning where it cannot; "
    + "a refusal when asked for and impossible", () => {
    expect(decideSandbox(undefined, works)).toEqual({ kind: "on", bwrap: "/usr/bin/bwrap" });
    expect(decideSandbox({ enabled: false, read: [], write: [] }, works)).toEqual({
      kind: "off",
      reason: "sandbox.enabled is false in org.yaml",
    });
    const warned = decideSandbox(undefined, missing);
    expect(warned).toEqual({
      kind: "unavailable",
      warning: "agents run WITHOUT a sandbox: bwrap (bubblewrap) is not on PATH, so each one may write every file of "
        + "the org (results, other agents' worktrees, the repo's .git) — install it: apt-get install bubblewrap (dnf "
        + "install bubblewrap), or set sandbox: { enabled: false } in org.yaml to run them unsandboxed on purpose",
    });
    expect(decideSandbox({ enabled: true, read: [], write: [] }, missing)).toEqual({
      kind: "refused",
      reason: "sandbox.enabled is true in org.yaml, but bwrap (bubblewrap) is not on PATH — "
        + "install it: apt-get install bubblewrap (dnf install bubblewrap), or set sandbox: { enabled: false }",
    });
    expect(checkSandbox(warned, missing)).toEqual({
      name: "bwrap", status: "warn", detail: "bwrap (bubblewrap) is not on PATH: agents run unsandboxed",
      fix: "install it: apt-get install bubblewrap (dnf install bubblewrap)",
    });
    expect(checkSandbox(decideSandbox(undefined, works), works)).toEqual({
      name: "bwrap",
      status: "ok",
      detail: "/usr/bin/bwrap works: every agent runs in its sandbox",
    });
  });

  test("a sandboxed baseline researcher submits through the daemon", () => {
    expect(defaultSubmitArgv({ ORG_OUTBOX: "/o/state/agents/a-1/outbox", ORG_STATE: "/o/state" })).toEqual([
      "/o/state/bin/org", "submit",
    ]);
  });
});

describe("the daemon's outbox", () => {
  const agent = { name: "a-1", role: "a", runtime: "r", branch: "org/t/a-1", worktree: "/o/worktrees/a-1", gpu: null };
  const context = { org: "t", root: "/o", state: "/o/state", agent, running: 0 };

  test("runs an agent command as the agent whose outbox it came through, passing on whom its ORG_AGENT "
    + "claimed for the command to check", () => {
    expect(decideOutboxRequest(
      { argv: ["send", "b-1", "hi"], cwd: "/o/worktrees/a-1/src", claimed: "b-1", file: false },
      context,
    )).toEqual({
      kind: "run", args: ["send", "b-1", "hi"], cwd: "/o/worktrees/a-1/src",
      env: {
        ORG_NAME: "t", ORG_AGENT: "b-1", ORG_BROKERED_FOR: "a-1", ORG_ROLE: "a", ORG_ROOT: "/o", ORG_STATE: "/o/state",
        ORG_WORKTREE: "/o/worktrees/a-1", ORG_INBOX: "/o/state/agents/a-1/inbox",
        ORG_PROGRESS: "/o/state/agents/a-1/own/progress.md", ORG_TASK: "/o/state/agents/a-1/task.md",
      },
    });
  });

  test("refuses a person's command and another org", () => {
    const at = { cwd: "/o/worktrees/a-1", claimed: "a-1", file: false };
    expect(decideOutboxRequest({ argv: ["down"], ...at }, context)).toMatchObject({
      kind: "refuse",
      reason: expect.stringMatching(
        /^`org down` is not for agents: in the sandbox an agent runs org submit, wait, send, /,
      ),
    });
    expect(decideOutboxRequest({ argv: ["-C", "/other", "submit"], ...at }, context)).toEqual({
      kind: "refuse",
      reason: "an agent's org commands run on its own org: drop -C",
    });
    expect(decideOutboxRequest({ argv: ["submit", "--dir=/other"], ...at }, context)).toEqual({
      kind: "refuse",
      reason: "an agent's org commands run on its own org: drop --dir=/other",
    });
  });

  test("a -f names the content the shim read in the sandbox, in a folder of its own: "
    + "never a path the daemon opens", () => {
    const at = { cwd: "/o/worktrees/a-1", claimed: "", file: true };
    const run = (argv: string[], file = true) => decideOutboxRequest({ ...at, argv, file }, context);
    expect(run(["send", "b-1", "-f", "../../worktrees/b-1/secret.md"])).toMatchObject({
      kind: "run",
      args: ["send", "b-1", "-f", "secret.md"],
      file: "secret.md",
    });
    expect(run(["task", "b-1", "--file=/o/worktrees/b-1/$(x)"])).toMatchObject({
      args: ["task", "b-1", "--file=file.md"],
      file: "file.md",
    });
    expect(run(["review", "-fnotes.md", "--file", "last.md"])).toMatchObject({
      args: ["review", "-flast.md", "--file", "last.md"],
      file: "last.md",
    });
    expect(run(["contract", "draft", "--", "-f", "x.md"])).toMatchObject({
      args: ["contract", "draft", "--", "-f", "x.md"],
    });
    expect(run(["logs", "-f", "b-1"], false)).toMatchObject({ kind: "run", args: ["logs", "-f", "b-1"] });
    expect(run(["send", "b-1", "-f", "/etc/shadow"], false)).toEqual({
      kind: "refuse",
      reason: "/etc/shadow's content did not come with the command: run org as your PATH has it, which reads the file",
    });
  });

  test("refuses a command past the agent's cap", () => {
    const at = { argv: ["status"], claimed: "", file: false };
    expect(decideOutboxRequest({ ...at, cwd: "/o/worktrees/a-1" }, { ...context, running: 4 })).toEqual({
      kind: "refuse",
      reason: "a-1 has 4 org commands running already, the most an agent may run at once (4) — "
        + "wait for one to end, then run this again",
    });
    expect(decideOutboxRequest({ ...at, cwd: "/o/worktrees/a-1" }, { ...context, running: 3 })).toMatchObject({
      kind: "run",
    });
  });
});

test("a sandbox record is none, a sandbox, or damaged with why; a damaged one is never read as none", () => {
  expect(parseAgentSandbox(undefined)).toEqual({ kind: "none" });
  expect(parseAgentSandbox('{"bwrap":"/usr/bin/bwrap","args":["--unshare-all"],"step":true}')).toEqual({
    kind: "sandboxed", sandbox: { bwrap: "/usr/bin/bwrap", args: ["--unshare-all"], step: true },
  });
  expect(parseAgentSandbox("")).toEqual({ kind: "damaged", reason: "not JSON" });
  expect(parseAgentSandbox("null")).toEqual({ kind: "damaged", reason: "bwrap: not a path" });
  expect(parseAgentSandbox('{"bwrap":"/usr/bin/bwrap","args":[1]}')).toEqual({
    kind: "damaged", reason: "args: not a list of strings",
  });
});
