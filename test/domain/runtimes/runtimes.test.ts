import { describe, expect, test } from "vitest";
import { loadConfig, type ConfigProbe } from "../../../src/domain/config/index.js";
import { ConfigSchema } from "../../../src/domain/config/schema.js";
import { buildLaunchSpec, planAgents } from "../../../src/domain/lifecycle/plan-agents.js";
import { chooseStartArgv } from "../../../src/domain/runtimes/launch.js";
import { resolveRuntime, sessionIdFor } from "../../../src/domain/runtimes/resolve-runtime.js";

const probe: ConfigProbe = {
  exists: async () => true,
  isGitRepo: async () => true,
  resolveCommit: async () => "a".repeat(40),
};
const context = {
  state: "/o/state", root: "/o", orgArgv: ["/node", "/pkg/bin/org.js"], binDir: "/o/state/bin", basePath: "/usr/bin",
};
const KICKOFF = "Read your system prompt and begin. Loop forever; never ask to stop.";

function specFor(runtime: Record<string, unknown>) {
  const config = ConfigSchema.parse({
    name: "toy",
    runtimes: { r: runtime },
    roles: { researcher: { prompt: "p.md", runtime: "r" } },
  });
  const [agent] = planAgents(config, "/o/worktrees", new Map([["researcher-1", null]]));
  return buildLaunchSpec(config, agent!, context);
}

describe("runtime presets", () => {
  test("claude: session id at start, resume by that id, its own CLAUDE_CONFIG_DIR, "
    + "the prompt by flag, the kickoff as argv", () => {
    const spec = specFor({ preset: "claude" });
    const id = sessionIdFor("/o", "researcher-1");
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(spec.argv).toEqual([
      "claude", "--dangerously-skip-permissions", "--session-id", id, "--append-system-prompt-file",
      "/o/state/agents/researcher-1/prompt.md", KICKOFF,
    ]);
    expect(spec.env.CLAUDE_CONFIG_DIR).toBe("/o/state/agents/researcher-1/home");
    expect(spec.runtime).toMatchObject({
      name: "r", preset: "claude", sessionId: id, home: "/o/state/agents/researcher-1/home", promptFile: null,
      resumeArgv: [
        "claude", "--dangerously-skip-permissions", "--resume", id, "--append-system-prompt-file",
        "/o/state/agents/researcher-1/prompt.md", KICKOFF,
      ],
      transcripts: { dir: "/o/state/agents/researcher-1/home/projects", suffix: `${id}.jsonl` },
      watch: { nudgeAfterMs: 600_000, nudgesPerHour: 3, answerTrust: false },
    });
  });

  test("codex: AGENTS.md in the worktree, its own CODEX_HOME, no background daemon, no update check, "
    + "no login shell, resume --last", () => {
    const spec = specFor({ preset: "codex" });
    const noUpdate = ["-c", "check_for_update_on_startup=false", "-c", "allow_login_shell=false"];
    expect(spec.argv).toEqual([
      "codex", ...noUpdate, "--no-daemon", "--dangerously-bypass-approvals-and-sandbox", KICKOFF,
    ]);
    expect(spec.env.CODEX_HOME).toBe("/o/state/agents/researcher-1/home");
    expect(spec.runtime?.promptFile).toBe("/o/worktrees/researcher-1/AGENTS.md");
    expect(spec.runtime?.resumeArgv).toEqual([
      "codex", ...noUpdate, "--no-daemon", "resume", "--last", "--dangerously-bypass-approvals-and-sandbox", KICKOFF,
    ]);
  });

  test("gemini and opencode pass the kickoff by flag, never typed; opencode resumes its last session", () => {
    expect(specFor({ preset: "gemini" }).argv).toEqual(["gemini", "--yolo", "--prompt-interactive", KICKOFF]);
    const opencode = specFor({ preset: "opencode" });
    expect(opencode.argv).toEqual(["opencode", "--auto", "--prompt", KICKOFF]);
    expect(opencode.runtime).toMatchObject({
      resumeArgv: ["opencode", "--auto", "--continue", "--prompt", KICKOFF],
      transcripts: { dir: "/o/state/agents/researcher-1/home/opencode", suffix: "opencode.db" },
    });
    expect(specFor({ preset: "gemini" }).runtime?.transcripts).toEqual({
      dir: "/o/state/agents/researcher-1/home/.gemini/tmp",
      suffix: ".jsonl",
    });
  });

  test("answer_trust adds the preset's trust flags after the unattended ones, "
    + "at start and resume (gemini: --skip-trust)", () => {
    const gemini = specFor({ preset: "gemini", answer_trust: true });
    expect(gemini.argv).toEqual(["gemini", "--yolo", "--skip-trust", "--prompt-interactive", KICKOFF]);
    expect(gemini.runtime?.resumeArgv).toEqual([
      "gemini", "--yolo", "--skip-trust", "--resume", "latest", "--prompt-interactive", KICKOFF,
    ]);
    expect(specFor({ preset: "gemini", answer_trust: true, unattended: [], trust: ["--trust-it"] }).argv).toEqual([
      "gemini", "--trust-it", "--prompt-interactive", KICKOFF,
    ]);
    expect(specFor({ preset: "claude", answer_trust: true }).argv.slice(0, 3)).toEqual([
      "claude", "--dangerously-skip-permissions", "--session-id",
    ]);
  });

  test("preset env: no self-update for claude and opencode, no second node for gemini; "
    + "org.yaml's env adds to it and overrides it key by key", () => {
    expect(specFor({ preset: "claude" }).env).toMatchObject({
      DISABLE_AUTOUPDATER: "1",
      CLAUDE_CONFIG_DIR: "/o/state/agents/researcher-1/home",
    });
    expect(specFor({ preset: "gemini" }).env).toMatchObject({ GEMINI_CLI_NO_RELAUNCH: "true" });
    expect(specFor({ preset: "opencode" }).env).toMatchObject({
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      XDG_DATA_HOME: "/o/state/agents/researcher-1/home",
    });
    const overridden = specFor({ preset: "claude", env: { DISABLE_AUTOUPDATER: "", IS_SANDBOX: "1" } });
    expect(overridden.env).toMatchObject({ DISABLE_AUTOUPDATER: "", IS_SANDBOX: "1" });
    expect(
      resolveRuntime(ConfigSchema.shape.runtimes.parse({ x: { preset: "opencode", env: { A: "b" } } }).x!).env,
    ).toEqual({ OPENCODE_DISABLE_AUTOUPDATE: "1", A: "b" });
    expect(specFor({ preset: "codex" }).env.DISABLE_AUTOUPDATER).toBeUndefined();
  });

  test("org.yaml overrides any part: program, unattended flags, resume, prompt file, env", () => {
    const spec = specFor({
      preset: "claude", program: "/opt/claude/bin/claude", unattended: [], resume: [], prompt_file: "CLAUDE.md",
      env: { IS_SANDBOX: "1" }, nudges_per_hour: 0,
    });
    expect(spec.argv[0]).toBe("/opt/claude/bin/claude");
    expect(spec.argv).not.toContain("--dangerously-skip-permissions");
    expect(spec.runtime).toMatchObject({
      resumeArgv: null,
      promptFile: "/o/worktrees/researcher-1/CLAUDE.md",
      watch: { nudgesPerHour: 0 },
    });
    expect(spec.env.IS_SANDBOX).toBe("1");
    expect(
      resolveRuntime(ConfigSchema.shape.runtimes.parse({ x: { preset: "codex", program: "./bin/codex" } }).x!).version,
    ).toEqual(["./bin/codex", "--version"]);
  });

  test("a command without a preset stays generic: no config folder, no resume", () => {
    const spec = specFor({ command: ["mybot", "{kickoff}"] });
    expect(spec.argv).toEqual(["mybot", KICKOFF]);
    expect(spec.runtime).toMatchObject({ preset: "generic", resumeArgv: null, promptFile: null, transcripts: null });
    expect(Object.keys(spec.env).filter((key) => !key.startsWith("ORG_"))).toEqual(["CUDA_VISIBLE_DEVICES", "PATH"]);
  });

  test("a restart resumes only once the CLI holds a conversation", () => {
    const spec = specFor({ preset: "claude" });
    expect(chooseStartArgv(spec, false)).toEqual({ argv: spec.argv, resumed: false });
    expect(chooseStartArgv(spec, true)).toEqual({ argv: spec.runtime!.resumeArgv, resumed: true });
    const generic = specFor({ command: ["mybot"] });
    expect(chooseStartArgv(generic, true)).toEqual({ argv: ["mybot"], resumed: false });
  });
});

describe("runtime config errors", () => {
  const load = async (runtime: string) => {
    const text = `runtimes:\n  c:\n${runtime}\nroles:\n  researcher:\n    prompt: p.md\n    runtime: c\n`;
    const result = await loadConfig({ file: "org.yaml", dir: "/x", text }, probe);
    return result.ok ? [] : result.problems;
  };

  test("a preset override with an unknown field", async () => {
    expect(await load("    preset: claude\n    unatended: []")).toEqual([
      'org.yaml:4:5: unknown key "unatended" in runtimes.c — did you mean "unattended"?',
    ]);
    expect(await load("    preset: claude\n    colour: blue")).toEqual([
      expect.stringMatching(
        new RegExp(/^org\.yaml:4:5: unknown key "colour" in runtimes\.c — remove it; the keys allowed in /.source
          + /runtimes\.c are command, builtin, restart, env, pass_env, preset, program, resume, /.source),
      ),
    ]);
  });

  test("an unknown preset, a generic preset with no command, a preset with a builtin", async () => {
    expect(await load("    preset: claud")).toEqual([
      'org.yaml:3:13: runtimes.c.preset must be one of claude, codex, gemini, opencode, generic, '
        + 'got "claud" — did you mean "claude"?',
    ]);
    expect(await load("    preset: generic")).toEqual([
      'org.yaml:3:5: runtimes.c has neither command, preset nor builtin — add preset: claude (or codex, gemini, '
        + 'opencode), command: [c, "{kickoff}"], or builtin: hillclimb',
    ]);
    expect(await load("    preset: codex\n    builtin: hillclimb")).toEqual([
      "org.yaml:4:5: runtimes.c has both preset and builtin — keep one: preset starts an agent CLI, "
        + "builtin runs one shipped with org",
    ]);
  });

  test("a preset alone is a complete runtime", async () => {
    expect(await load("    preset: claude")).toEqual([]);
  });
});
