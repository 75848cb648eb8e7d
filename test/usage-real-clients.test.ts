import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { AgentUsageReader } from "../src/adapters/usage/agent.js";
import { parseLedger } from "../src/org/usage/ledger.js";
import { usagePaths } from "../src/org/usage/summary.js";
import type { UsageSummary } from "../src/org/usage/summary.js";
import { reactions, startModelServer, type Exchange, type ModelServer, type Script } from "./helpers/model-server/index.js";
import { PACKAGE_ROOT } from "./helpers/org-cli.js";
import { isRunning } from "./helpers/processes.js";
import { makeTempDir, removeDir } from "./helpers/temp-repo.js";

// Each real CLI, non-interactive, against the scripted server: org's counts must be the server's usage, reply for reply.
const CLIENTS = join(PACKAGE_ROOT, "test/clients/node_modules/.bin");
const KEY = "sk-scripted-0123456789abcdefghij";
const MIND = reactions([{ when: /research/, commands: ["echo one", "echo two"], done: "All done." }]);
// A text before each tool call: Claude Code writes such a reply as two lines, which must count once.
const TALKATIVE: Script = (request) => {
  const move = MIND(request);
  return move.kind === "shell" ? { ...move, text: `Running ${move.command}` } : move;
};
// The conversation's requests offer tools; side requests (titles, Gemini's router) do not, and no CLI records them.
const conversation = (exchange: Exchange) => exchange.request.tools.length > 0;

beforeAll(() => {
  execFileSync(join(PACKAGE_ROOT, "scripts/install-clients.sh"), { stdio: "inherit", timeout: 300_000 });
}, 300_000);

describe("token usage read from what each real CLI records", { tags: ["slow"] }, () => {
  let dir: string;
  let server: ModelServer | undefined;
  let child: { pid?: number } | undefined;
  afterEach(async () => {
    // Nothing of ours left running: the CLI's whole process group goes, then the server.
    if (child?.pid && isRunning(child.pid)) process.kill(-child.pid, "SIGKILL");
    await server?.close();
    removeDir(dir);
  });

  /** The CLI run to its end in a folder of its own, with `home` as its config folder, then read as the daemon reads it. */
  async function run(preset: string, script: Script, argv: (url: string) => string[], env: (url: string, home: string) => Record<string, string>, setup: (url: string, home: string, cwd: string) => void = () => {}) {
    dir = makeTempDir(`org-usage-${preset}-`);
    const home = join(dir, "state/agents/a-1/home");
    const cwd = join(dir, "work");
    for (const folder of [home, cwd, join(dir, "user")]) mkdirSync(folder, { recursive: true });
    server = await startModelServer({ script });
    setup(server.url, home, cwd);
    writeFileSync(join(dir, "state/agents/a-1/launch.json"), JSON.stringify({ agent: "a-1", runtime: { preset, home } }));
    const [program, ...args] = argv(server.url);
    const exit = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const started = spawn(join(CLIENTS, program!), args, { cwd, detached: true, stdio: ["ignore", "pipe", "pipe"], env: { PATH: process.env.PATH ?? "", HOME: join(dir, "user"), ...env(server!.url, home) } });
      child = started;
      let output = "";
      started.stdout.on("data", (chunk: Buffer) => (output += chunk));
      started.stderr.on("data", (chunk: Buffer) => (output += chunk));
      started.on("error", reject);
      started.on("close", (code) => resolve({ code, output }));
    });
    expect(exit.output).toContain("All done.");
    await new AgentUsageReader(join(dir, "state"), "a-1").poll(new Date(), {});
    const paths = usagePaths(join(dir, "state"), "a-1");
    const summary = JSON.parse(readFileSync(paths.summary, "utf8")) as UsageSummary;
    const ledger = parseLedger(readFileSync(paths.ledger, "utf8"));
    const served = server.exchanges.filter(conversation).map((exchange) => exchange.usage);
    const counted = { input: summary.input, output: summary.output, cacheRead: summary.cacheRead, cacheWrite: summary.cacheWrite };
    return { summary, counted, served, replies: ledger.map(({ input, output, cacheRead, cacheWrite }) => ({ input, output, cacheRead, cacheWrite })), server };
  }

  test("Claude Code (claude -p): every request, each reply once though written as two lines", async () => {
    const result = await run("claude", TALKATIVE, () => ["claude", "-p", "Please do research", "--dangerously-skip-permissions"], (url, home) => ({
      ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: KEY, IS_SANDBOX: "1", CLAUDE_CONFIG_DIR: home, DISABLE_AUTOUPDATER: "1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    }));
    expect(result.served).toHaveLength(3);
    expect(result.replies).toEqual(result.served);
    expect(result.counted).toEqual(result.server.totalUsage());
    expect(result.summary).toMatchObject({ cli: "Claude Code", replies: 3, costUsd: null, priced: false });
    expect(result.summary.unknown).toBeUndefined();
  }, 90_000);

  test("Codex (codex exec): every request, cached input taken out of input", async () => {
    const result = await run("codex", MIND, () => ["codex", "exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", "Please do research"], (_url, home) => ({ CODEX_HOME: home, SCRIPTED_API_KEY: "k" }), (url, home) => {
      writeFileSync(join(home, "config.toml"), `model = "gpt-5"\nmodel_provider = "scripted"\n[model_providers.scripted]\nname = "scripted"\nbase_url = "${url}/v1"\nwire_api = "responses"\nenv_key = "SCRIPTED_API_KEY"\n`);
    });
    expect(result.served).toHaveLength(3);
    expect(result.replies).toEqual(result.served);
    expect(result.counted).toEqual(result.server.totalUsage());
    expect(result.summary).toMatchObject({ cli: "Codex", replies: 3, byModel: { "gpt-5": result.counted } });
  }, 90_000);

  test("Gemini CLI (gemini -p): the conversation's requests exactly; its router call is not recorded", async () => {
    const result = await run("gemini", MIND, () => ["gemini", "--yolo", "--skip-trust", "-p", "Please do research"], (url, home) => ({ GEMINI_CLI_HOME: home, GOOGLE_GEMINI_BASE_URL: url, GEMINI_API_KEY: "k" }), (_url, home) => {
      mkdirSync(join(home, ".gemini"), { recursive: true });
      writeFileSync(join(home, ".gemini/settings.json"), JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } } }));
    });
    expect(result.served).toHaveLength(3);
    expect(result.replies).toEqual(result.served);
    expect(result.counted).toEqual(result.server.totalUsage(conversation));
    const side = result.server.exchanges.filter((exchange) => !conversation(exchange) && exchange.usage);
    expect(side.map((exchange) => exchange.request.path)).toEqual([expect.stringMatching(/:generateContent$/)]);
  }, 90_000);

  test("opencode (opencode run): the conversation's requests exactly, read from its SQLite file and WAL; its title call is not recorded", async () => {
    const result = await run("opencode", MIND, () => ["opencode", "run", "Please do research"], (_url, home) => ({
      XDG_DATA_HOME: home, XDG_CONFIG_HOME: join(dir, "user/.config"), XDG_CACHE_HOME: join(dir, "user/.cache"), XDG_STATE_HOME: join(dir, "user/.state"),
      OPENCODE_DISABLE_AUTOUPDATE: "1", OPENCODE_DISABLE_MODELS_FETCH: "1",
    }), (url, _home, cwd) => {
      const provider = { npm: "@ai-sdk/openai-compatible", name: "scripted", options: { baseURL: `${url}/v1`, apiKey: "k" }, models: { model: { name: "model" } } };
      writeFileSync(join(cwd, "opencode.json"), JSON.stringify({ model: "scripted/model", provider: { scripted: provider } }));
    });
    expect(result.served).toHaveLength(3);
    expect(result.replies).toEqual(result.served);
    expect(result.counted).toEqual(result.server.totalUsage(conversation));
    expect(result.server.exchanges.filter((exchange) => !conversation(exchange))).toHaveLength(1);
    expect(result.summary).toMatchObject({ cli: "opencode", byModel: { model: result.counted } });
    // opencode leaves its last writes in the WAL, not yet in the database file: read through both.
    expect(statSync(join(dir, "state/agents/a-1/home/opencode/opencode.db-wal")).size).toBeGreaterThan(0);
  }, 90_000);
});
