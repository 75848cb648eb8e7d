import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { processRunner } from "../src/adapters/process.js";
import { hasConversation, probeRuntime } from "../src/adapters/runtime-probe.js";
import { ScreenWatch, type ScreenPort } from "../src/adapters/screen-watch.js";
import { tmuxScreenPort } from "../src/adapters/screen-tmux.js";
import { ConfigSchema } from "../src/org/config/schema.js";
import { buildLaunchSpec, planAgents } from "../src/org/plan.js";
import { resolveRuntime } from "../src/org/runtimes/resolve.js";
import type { AgentStatus, LaunchSpec } from "../src/org/state.js";
import { PACKAGE_ROOT } from "./helpers/org-cli.js";
import { PaneLab } from "./helpers/screen-panes.js";
import { pollUntil } from "./helpers/poll.js";
import { makeTempDir, removeDir } from "./helpers/temp-repo.js";

// Claude Code 2.1.328 and Codex 0.169.0 from npm, offline as on these machines: what they show is the case handled.
const CLIENTS = join(PACKAGE_ROOT, "test/clients/node_modules/.bin");

describe("real agent CLIs in tmux panes, offline", { tags: ["slow"] }, () => {
  let lab: PaneLab;
  let dir: string;
  const sent: string[] = [];

  beforeAll(() => {
    execFileSync(join(PACKAGE_ROOT, "scripts/install-clients.sh"), { stdio: "inherit", timeout: 300_000 });
    lab = new PaneLab();
    dir = makeTempDir("org-clients-");
  }, 300_000);
  afterAll(() => {
    lab?.close();
    removeDir(dir);
  });

  /** `org up`'s launch spec for a preset, its files written, and the program started in its own pane. */
  function launch(agent: string, preset: "claude" | "codex"): LaunchSpec {
    // As root Claude Code refuses --dangerously-skip-permissions and exits before tmux shows why; IS_SANDBOX lifts that.
    const runtime = { preset, program: join(CLIENTS, preset), env: preset === "claude" ? { IS_SANDBOX: "1" } : {} };
    const config = ConfigSchema.parse({ name: "real", runtimes: { [preset]: runtime }, roles: { [agent]: { prompt: "p.md", runtime: preset } } });
    const planned = planAgents(config, join(dir, "worktrees"), new Map([[`${agent}-1`, null]]))[0]!;
    const state = join(dir, "state");
    const spec = buildLaunchSpec(config, planned, { state, root: dir, orgArgv: ["node", "org"], binDir: join(state, "bin"), basePath: process.env.PATH ?? "" });
    mkdirSync(spec.runtime!.home, { recursive: true });
    mkdirSync(spec.cwd, { recursive: true });
    writeFileSync(join(state, "agents", spec.agent, "prompt.md"), "# researcher\n");
    writeFileSync(join(state, "agents", spec.agent, "launch.json"), JSON.stringify(spec));
    const status: AgentStatus = { agent: spec.agent, state: "running", pid: null, startedAt: new Date().toISOString(), restarts: 0, consecutiveFailures: 0, lastExit: null, reason: "running", updatedAt: new Date().toISOString() };
    writeFileSync(join(state, "agents", spec.agent, "status.json"), JSON.stringify(status));
    // A HOME of its own: nothing touches the real ~/.claude or ~/.codex.
    lab.start(spec.agent, spec.argv, { ...spec.env, HOME: join(dir, "home") }, spec.cwd);
    return spec;
  }

  const port = (): ScreenPort => {
    const real = tmuxScreenPort(processRunner, lab.socket);
    return { ...real, sendLine: async (_id, text) => void sent.push(text), sendKeys: async (_id, keys) => void sent.push(keys.join(" ")) };
  };
  const statusOf = (spec: LaunchSpec) => JSON.parse(readFileSync(join(dir, "state", "agents", spec.agent, "status.json"), "utf8")) as AgentStatus;

  test("Claude Code cannot reach its service: the dead pane's screen blocks the agent with the fix, nothing typed", async () => {
    const spec = launch("claude", "claude");
    // Its terminal closes first; under load the process itself can take many seconds more to be reaped (no status yet).
    const pane = await pollUntil(() => lab.panes().find((p) => p.agent === spec.agent && p.dead), { timeoutMs: 30_000, what: "claude to exit" });
    expect([1, null]).toContain(pane.exitCode);
    expect(lab.screen(pane.id)).toContain("Unable to connect to Anthropic services");
    const watch = new ScreenWatch(join(dir, "state"), port());
    expect(await watch.whyBlocked(pane)).toBe(
      `screen shows "Unable to connect to Anthropic services" — this machine cannot reach ${spec.argv[0]}'s service: fix the network or set HTTPS_PROXY under runtimes.claude.env, then restart claude-1`,
    );
    const [outcome] = await watch.tick([pane], Date.now() + 3_600_000);
    expect(outcome).toMatchObject({ screen: { kind: "offline" }, decision: { kind: "block" }, typed: null });
    expect(statusOf(spec)).toMatchObject({ state: "blocked", reason: expect.stringContaining("fix the network") });
    expect(await hasConversation(spec.runtime!)).toBe(false);
    expect(sent).toEqual([]);
  }, 60_000);

  test("Codex waits at its sign-in menu: login required, blocked with the fix, nothing typed into the menu", async () => {
    const spec = launch("codex", "codex");
    const id = lab.panes().find((p) => p.agent === spec.agent)!.id;
    await pollUntil(() => lab.screen(id).includes("Sign in with ChatGPT"), { timeoutMs: 30_000, what: "codex's sign-in menu" });
    const before = lab.screen(id);
    const watch = new ScreenWatch(join(dir, "state"), port());
    const panes = lab.panes().filter((p) => p.agent === spec.agent);
    await watch.tick(panes, Date.now());
    const [outcome] = await watch.tick(panes, Date.now() + 3_600_000);
    expect(outcome).toMatchObject({ screen: { kind: "login-required" }, decision: { kind: "block" }, typed: null });
    expect(statusOf(spec).reason).toBe(
      `screen shows "> 1. Sign in with ChatGPT" — log in once for this agent: run \`CODEX_HOME=${spec.runtime!.home} ${spec.argv[0]}\` and sign in (or \`org attach codex-1\` and sign in there), or put an API key under runtimes.codex.env`,
    );
    expect(lab.panes().find((p) => p.agent === spec.agent)!.dead).toBe(false);
    expect(lab.screen(id)).toBe(before);
    expect(sent).toEqual([]);
  }, 60_000);

  test("org doctor's probe: installed, its version, and not logged in under an empty HOME", async () => {
    const env = { PATH: `${CLIENTS}:${process.env.PATH}`, HOME: join(dir, "home") };
    const claude = await probeRuntime("c", resolveRuntime(ConfigSchema.shape.runtimes.parse({ c: { preset: "claude" } }).c!), dir, processRunner, env);
    expect(claude).toMatchObject({ found: true, login: "", install: "npm install -g @anthropic-ai/claude-code" });
    const codex = await probeRuntime("x", resolveRuntime(ConfigSchema.shape.runtimes.parse({ x: { preset: "codex", program: join(CLIENTS, "codex") } }).x!), dir, processRunner, env);
    expect(codex).toMatchObject({ found: true, version: "codex-cli 0.169.0", login: "" });
  }, 60_000);
});
