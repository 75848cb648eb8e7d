// Each real agent CLI run once, non-interactive, against a scripted model server, with its config folder where org
// gives an agent's: what real-client-records reads back as the daemon and `org traces` do.
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isRunning } from "./processes.js";
import { PACKAGE_ROOT } from "./org-cli.js";

export const CLIENTS = join(PACKAGE_ROOT, "test/clients/node_modules/.bin");
const KEY = "sk-scripted-0123456789abcdefghij";
export type Preset = "claude" | "codex" | "gemini" | "opencode";

interface Recipe {
  argv: (prompt: string) => string[];
  env: (url: string, home: string, dir: string) => Record<string, string>;
  setup?: (url: string, home: string, cwd: string) => void;
}

export const RECIPES: Record<Preset, Recipe> = {
  claude: {
    argv: (prompt) => ["claude", "-p", prompt, "--dangerously-skip-permissions"],
    env: (url, home) => ({
      ANTHROPIC_BASE_URL: url,
      ANTHROPIC_API_KEY: KEY,
      IS_SANDBOX: "1",
      CLAUDE_CONFIG_DIR: home,
      DISABLE_AUTOUPDATER: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    }),
  },
  codex: {
    argv: (prompt) => ["codex", "exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", prompt],
    env: (_url, home) => ({ CODEX_HOME: home, SCRIPTED_API_KEY: "k" }),
    setup: (url, home) => {
      const config = `model = "gpt-5"\nmodel_provider = "scripted"\n[model_providers.scripted]\nname = "scripted"\n` +
        `base_url = "${url}/v1"\nwire_api = "responses"\nenv_key = "SCRIPTED_API_KEY"\n`;
      writeFileSync(join(home, "config.toml"), config);
    },
  },
  gemini: {
    argv: (prompt) => ["gemini", "--yolo", "--skip-trust", "-p", prompt],
    env: (url, home) => ({ GEMINI_CLI_HOME: home, GOOGLE_GEMINI_BASE_URL: url, GEMINI_API_KEY: "k" }),
    setup: (_url, home) => {
      mkdirSync(join(home, ".gemini"), { recursive: true });
      const settings = { security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } } };
      writeFileSync(join(home, ".gemini/settings.json"), JSON.stringify(settings));
    },
  },
  opencode: {
    argv: (prompt) => ["opencode", "run", prompt],
    env: (_url, home, dir) => ({
      XDG_DATA_HOME: home,
      XDG_CONFIG_HOME: join(dir, "user/.config"),
      XDG_CACHE_HOME: join(dir, "user/.cache"),
      XDG_STATE_HOME: join(dir, "user/.state"),
      OPENCODE_DISABLE_AUTOUPDATE: "1", OPENCODE_DISABLE_MODELS_FETCH: "1",
    }),
    setup: (url, _home, cwd) => {
      const provider = {
        npm: "@ai-sdk/openai-compatible",
        name: "scripted",
        options: { baseURL: `${url}/v1`, apiKey: "k" },
        models: { model: { name: "model" } },
      };
      const config = { model: "scripted/model", provider: { scripted: provider } };
      writeFileSync(join(cwd, "opencode.json"), JSON.stringify(config));
      // Its config folder as if its plugin package were installed: opencode 1.18.33 then runs no npm install at its
      // start (one that fetches from the registry where it answers, and fails).
      const folder = join(cwd, "../user/.config/opencode");
      mkdirSync(join(folder, "node_modules"), { recursive: true });
      const lock = { packages: { "": { dependencies: { "@opencode-ai/plugin": "*" } } } };
      writeFileSync(join(folder, "package-lock.json"), JSON.stringify(lock));
    },
  },
};

/**
 * Runs `preset`'s CLI to its end on `prompt` in `dir`/work, its config folder `home`, its user's HOME `dir`/user;
 * `track` gets the child so a test's afterEach can kill its whole group. Resolves with everything it printed.
 */
export async function runRealClient(
  preset: Preset,
  opts: { url: string; dir: string; home: string; prompt: string; track?: (child: { pid?: number }) => void },
): Promise<{ code: number | null; output: string }> {
  const { url, dir, home } = opts;
  const cwd = join(dir, "work");
  for (const folder of [home, cwd, join(dir, "user")]) mkdirSync(folder, { recursive: true });
  const recipe = RECIPES[preset];
  recipe.setup?.(url, home, cwd);
  const [program, ...args] = recipe.argv(opts.prompt);
  return new Promise((resolve, reject) => {
    const env = { PATH: process.env.PATH ?? "", HOME: join(dir, "user"), ...recipe.env(url, home, dir) };
    const started = spawn(join(CLIENTS, program!), args, {
      cwd,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env,
    });
    opts.track?.(started);
    let output = "";
    started.stdout.on("data", (chunk: Buffer) => (output += chunk));
    started.stderr.on("data", (chunk: Buffer) => (output += chunk));
    started.on("error", reject);
    started.on("close", (code) => resolve({ code, output }));
  });
}

/** Kills a CLI's whole process group if it still runs: nothing of ours is left after a test. */
export function killClient(child: { pid?: number } | undefined): void {
  if (child?.pid && isRunning(child.pid)) process.kill(-child.pid, "SIGKILL");
}
