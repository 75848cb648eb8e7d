import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from "vitest";
import { processRunner } from "../../../src/adapters/process.js";
import { hasConversation, probeRuntime } from "../../../src/adapters/probes/runtime.js";
import { ScreenWatch, type ScreenPort } from "../../../src/daemon/screen-watch.js";
import { ConfigSchema } from "../../../src/domain/config/schema.js";
import { buildLaunchSpec, planAgents } from "../../../src/domain/lifecycle/plan-agents.js";
import { resolveRuntime } from "../../../src/domain/runtimes/resolve-runtime.js";
import type { AgentStatus, LaunchSpec } from "../../../src/domain/state.js";
import { PACKAGE_ROOT } from "../../helpers/org-cli.js";
import { PaneLab } from "../../helpers/screen-panes.js";
import { pollUntil } from "../../helpers/poll.js";
import { git, makeTempDir, removeDir } from "../../helpers/temp-repo.js";

// Claude Code 2.1.328, Codex 0.169.0, Gemini CLI 0.61.0 and opencode 1.18.33 from npm, offline as on these machines:
// what they show is the case handled. The CLIs started by `org up` are in real-clients-up.clients.
const CLIENTS = join(PACKAGE_ROOT, "test/clients/node_modules/.bin");

beforeAll(() => {
  execFileSync(join(PACKAGE_ROOT, "scripts/install-clients.sh"), { stdio: "inherit", timeout: 300_000 });
}, 300_000);

describe("real agent CLIs in tmux panes, offline", () => {
  let lab: PaneLab;
  let dir: string;
  const sent: string[] = [];

  beforeAll(() => {
    lab = new PaneLab();
    dir = makeTempDir("org-clients-");
  });
  afterAll(() => {
    lab?.close();
    removeDir(dir);
  });

  /**
   * `org up`'s launch spec for a preset, its files written (and `homeFiles` in its config folder),
   * and the program started in its own pane.
   */
  function launch(
    agent: string, preset: "claude" | "codex", overrides: object = {}, homeFiles: Record<string, string> = {}, on = lab,
  ): LaunchSpec {
    // As root Claude Code refuses --dangerously-skip-permissions and exits before tmux shows why;
    // IS_SANDBOX lifts that.
    // (Its auto-updater, which runs `npm install -g` wherever the npm registry answers, is off by the preset's env.)
    const runtime = {
      preset, program: join(CLIENTS, preset), env: preset === "claude" ? { IS_SANDBOX: "1" } : {}, ...overrides,
    };
    const config = ConfigSchema.parse({
      name: "real", runtimes: { [preset]: runtime }, roles: { [agent]: { prompt: "p.md", runtime: preset } },
    });
    const planned = planAgents(config, join(dir, "worktrees"), new Map([[`${agent}-1`, null]]))[0]!;
    const state = join(dir, "state");
    const spec = buildLaunchSpec(config, planned, {
      state, root: dir, orgArgv: ["node", "org"], binDir: join(state, "bin"), basePath: process.env.PATH ?? "",
    });
    mkdirSync(spec.runtime!.home, { recursive: true });
    for (const [file, text] of Object.entries(homeFiles)) writeFileSync(join(spec.runtime!.home, file), text);
    mkdirSync(spec.cwd, { recursive: true });
    // A git checkout, as org up's worktree is: Codex asks about trust only inside one.
    git(spec.cwd, ["init", "-q"]);
    writeFileSync(join(state, "agents", spec.agent, "prompt.md"), "# researcher\n");
    writeFileSync(join(state, "agents", spec.agent, "launch.json"), JSON.stringify(spec));
    const status: AgentStatus = {
      agent: spec.agent, state: "running", pid: null, startedAt: new Date().toISOString(), restarts: 0,
      consecutiveFailures: 0, lastExit: null, reason: "running", updatedAt: new Date().toISOString(),
    };
    writeFileSync(join(state, "agents", spec.agent, "status.json"), JSON.stringify(status));
    // A HOME of its own: nothing touches the real ~/.claude or ~/.codex.
    on.start(spec.agent, spec.argv, { ...spec.env, HOME: join(dir, "home") }, spec.cwd);
    return spec;
  }

  const port = (): ScreenPort => {
    const real = lab.openScreenPort();
    return {
      ...real,
      sendLine: async (_id, text) => void sent.push(text),
      sendKeys: async (_id, keys) => void sent.push(keys.join(" ")),
    };
  };
  const statusOf = (spec: LaunchSpec) =>
    JSON.parse(readFileSync(join(dir, "state", "agents", spec.agent, "status.json"), "utf8")) as AgentStatus;

  test("Claude Code cannot reach its service: " +
    "the dead pane's screen blocks the agent with the fix, nothing typed", async () => {
    const spec = launch("claude", "claude");
    // Its terminal closes first; under load the process itself can take many seconds more to be reaped
    // (no status yet).
    const pane = await pollUntil(() => lab.panes().find((p) => p.agent === spec.agent && p.dead), {
      timeoutMs: 30_000,
      what: "claude to exit",
    });
    expect([1, null]).toContain(pane.exitCode);
    expect(lab.screen(pane.id)).toContain("Unable to connect to Anthropic services");
    const watch = new ScreenWatch(join(dir, "state"), port());
    expect(await watch.whyBlocked(pane)).toBe(
      `screen shows "Unable to connect to Anthropic services" — this machine cannot reach ` +
        `${spec.argv[0]}'s service: fix the network or set HTTPS_PROXY under runtimes.claude.env, ` +
        `then restart claude-1`,
    );
    const [outcome] = await watch.tick([pane], Date.now() + 3_600_000);
    expect(outcome).toMatchObject({ screen: { kind: "offline" }, decision: { kind: "block" }, typed: null });
    expect(statusOf(spec)).toMatchObject({ state: "blocked", reason: expect.stringContaining("fix the network") });
    expect(await hasConversation(spec.runtime!)).toBe(false);
    expect(sent).toEqual([]);
  }, 60_000);

  test("Codex waits at its sign-in menu: " +
    "login required, blocked with the fix, nothing typed into the menu", async () => {
    const spec = launch("codex", "codex");
    const id = lab.panes().find((p) => p.agent === spec.agent)!.id;
    await pollUntil(() => lab.screen(id).includes("Sign in with ChatGPT"), {
      timeoutMs: 30_000,
      what: "codex's sign-in menu",
    });
    const before = lab.screen(id);
    const watch = new ScreenWatch(join(dir, "state"), port());
    const panes = lab.panes().filter((p) => p.agent === spec.agent);
    await watch.tick(panes, Date.now());
    const [outcome] = await watch.tick(panes, Date.now() + 3_600_000);
    expect(outcome).toMatchObject({ screen: { kind: "login-required" }, decision: { kind: "block" }, typed: null });
    expect(statusOf(spec).reason).toBe(
      `screen shows "> 1. Sign in with ChatGPT" — log in once for this agent: ` +
        `run \`CODEX_HOME=${spec.runtime!.home} ${spec.argv[0]}\` and sign in (or \`org attach codex-1\` and sign in ` +
        `there), or export its API key in your shell and name it under runtimes.codex.pass_env ` +
        `(secrets never go in org.yaml)`,
    );
    expect(lab.panes().find((p) => p.agent === spec.agent)!.dead).toBe(false);
    expect(lab.screen(id)).toBe(before);
    expect(sent).toEqual([]);
  }, 60_000);

  test("real trust dialogs answered with the keys each CLI takes (Claude Code: Down Enter, Codex: Enter), " +
    "then blocked at sign-in / the network", async () => {
    // A tmux server each, so each dialog has a whole 120x40 pane, and a watch typing for real into it.
    const watched = (spec: LaunchSpec, on: PaneLab) => {
      onTestFinished(() => on.close());
      return { spec, on, watch: new ScreenWatch(join(dir, "state"), on.openScreenPort()) };
    };
    // Past their first-run screens: Claude Code's onboarding marked done,
    // Codex holding an API key as `codex login` saves it.
    const claudeLab = new PaneLab();
    const codexLab = new PaneLab();
    const claudeHome = { ".claude.json": '{"hasCompletedOnboarding":true}' };
    const codexHome = { "auth.json": '{"auth_mode":"apikey","OPENAI_API_KEY":"fake"}' };
    const trusting = { answer_trust: true };
    const claude = watched(launch("trusting-claude", "claude", trusting, claudeHome, claudeLab), claudeLab);
    const codex = watched(launch("trusting-codex", "codex", trusting, codexHome, codexLab), codexLab);
    const typed: string[] = [];
    // Each look is 11 s of the watch's clock after the last, so a dialog still up is answered again,
    // as the daemon would.
    let clock = Date.now();
    const retyped: string[] = [];
    const look = async (cli: typeof claude, shows: string) => {
      const pane = cli.on.panes()[0]!;
      // Under load a key typed while the CLI still draws its dialog is lost:
      // a dialog still up 5 s on is answered again, as the daemon would.
      let lastTick = Date.now();
      await pollUntil(
        async () => {
          if (cli.on.screen(pane.id).includes(shows)) return true;
          if (Date.now() - lastTick < 5_000) return false;
          const [again] = await cli.watch.tick([pane], (clock += 11_000));
          if (again?.typed) retyped.push(`${cli.spec.agent}: ${again.typed}`);
          lastTick = Date.now();
          return false;
        },
        {
          timeoutMs: 45_000, intervalMs: 200, what: `${cli.spec.agent} to show "${shows}"`,
          explain: () => `retyped: ${retyped.join(", ") || "none"}\n${cli.on.screen(pane.id)}`,
        },
      );
      const [outcome] = await cli.watch.tick([pane], (clock += 11_000));
      if (outcome?.typed) typed.push(`${cli.spec.agent}: ${outcome.typed}`);
      return outcome;
    };
    const trust = (keys: string) => ({ screen: { kind: "trust-dialog" }, typed: keys });
    const block = (kind: string) => ({ screen: { kind }, decision: { kind: "block" }, typed: null });
    // Side by side: Codex's own retries take ~18 s before it says the network is gone, Claude Code's dialogs ~6.
    await Promise.all([
      (async () => {
        expect(await look(claude, "Yes, I trust this folder")).toMatchObject(trust("Down Enter"));
        expect(await look(claude, "Yes, I accept")).toMatchObject(trust("Down Enter"));
        expect(await look(claude, "Not logged in")).toMatchObject(block("login-required"));
      })(),
      (async () => {
        expect(await look(codex, "Trust this folder?")).toMatchObject(trust("Enter"));
        // "Reconnecting... 1/5" is its own retry (a 500 shows it too); "waiting for network" is the machine offline.
        expect(await look(codex, "waiting for network")).toMatchObject(block("offline"));
      })(),
    ]);
    expect(typed.sort()).toEqual([
      "trusting-claude-1: Down Enter", "trusting-claude-1: Down Enter", "trusting-codex-1: Enter",
    ]);
    // Only the dialogs' own keys were ever typed again, never one into a later screen.
    const isDialogKey = (key: string) => key === "trusting-claude-1: Down Enter" || key === "trusting-codex-1: Enter";
    expect(retyped.every(isDialogKey)).toBe(true);
    // Each CLI saved the answer as yes for its folder.
    const claudeJson = readFileSync(join(claude.spec.runtime!.home, ".claude.json"), "utf8");
    const claudeState = JSON.parse(claudeJson) as { projects: Record<string, object> };
    expect(claudeState.projects[claude.spec.cwd]).toMatchObject({ hasTrustDialogAccepted: true });
    expect(readFileSync(join(codex.spec.runtime!.home, "config.toml"), "utf8")).toContain(
      `[projects."${codex.spec.cwd}"]\ntrust_level = "trusted"`,
    );
    const notLoggedIn = /^screen shows ".*Not logged in · (Please )?run \/login" — log in once for this agent/;
    expect(statusOf(claude.spec)).toMatchObject({ state: "blocked", reason: expect.stringMatching(notLoggedIn) });
    expect(statusOf(codex.spec)).toMatchObject({ state: "blocked", reason: expect.stringContaining("cannot reach") });
  }, 150_000);

  test("org doctor's probe: installed, its version, " +
    "and not logged in under an empty HOME (opencode needs no login)", async () => {
    const env = { PATH: `${CLIENTS}:${process.env.PATH}`, HOME: join(dir, "home") };
    const probe = (name: string, runtime: object, extra = {}) => {
      const resolved = resolveRuntime(ConfigSchema.shape.runtimes.parse({ [name]: runtime })[name]!);
      return probeRuntime(name, resolved, dir, processRunner, { ...env, ...extra });
    };
    const [claude, codex, gemini, opencode, withheld, keyed] = await Promise.all([
      probe("c", { preset: "claude" }),
      probe("x", { preset: "codex", program: join(CLIENTS, "codex") }),
      probe("g", { preset: "gemini" }),
      probe("o", { preset: "opencode" }),
      probe("g", { preset: "gemini" }, { GEMINI_API_KEY: "k" }),
      probe("g", { preset: "gemini", pass_env: ["GEMINI_API_KEY"] }, { GEMINI_API_KEY: "k" }),
    ]);
    expect(claude).toMatchObject({
      found: true, version: "2.1.328 (Claude Code)", login: { kind: "no", without: "" },
      install: "npm install -g @anthropic-ai/claude-code",
    });
    expect(codex).toMatchObject({ found: true, version: "codex-cli 0.169.0", login: { kind: "no", without: "" } });
    expect(gemini).toMatchObject({
      found: true, version: "0.61.0", login: { kind: "no", without: "" }, install: "npm install -g @google/gemini-cli",
    });
    expect(opencode).toMatchObject({
      found: true, version: "1.18.33", login: { kind: "no", without: expect.stringContaining("free models") },
      install: "npm install -g opencode-ai",
    });
    expect(withheld).toMatchObject({ found: true, login: { kind: "withheld", variable: "GEMINI_API_KEY" } });
    expect(keyed).toMatchObject({ found: true, login: { kind: "yes", how: "$GEMINI_API_KEY is passed to it" } });
  }, 60_000);
});
