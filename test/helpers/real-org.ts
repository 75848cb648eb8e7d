import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PtyClient } from "../../src/adapters/pty/client.js";
import { tmuxSocket } from "../../src/domain/paths.js";
import type { AgentStatus } from "../../src/domain/state.js";
import {
  startModelServer,
  toolOutputs,
  type ModelRequest,
  type ModelServer,
  type Move,
  type Script,
} from "./model-server/index.js";
import { pollUntil } from "./poll.js";
import { PACKAGE_ROOT, runOrg, runOrgAsync, type CliResult } from "./org-cli.js";
import { isRunning } from "./processes.js";
import { removeDir } from "./temp-repo.js";
import { createTestOrg, readResultRows, tmux } from "./test-org/index.js";

export const CLIENTS = join(PACKAGE_ROOT, "test/clients/node_modules/.bin");
export type Cli = "claude" | "codex" | "gemini" | "opencode";

// Longer than 20 characters: Claude Code approves a custom key by its last 20, which org writes for it.
const API_KEY = "sk-scripted-0123456789abcdefghij";

/** The environment every org command of these tests runs with: nothing inherited that changes how a CLI behaves. */
export function orgEnv(home: string): Record<string, string> {
  return {
    HOME: home,
    SCRIPTED_API_KEY: API_KEY,
    ANTHROPIC_API_KEY: API_KEY,
    GEMINI_API_KEY: API_KEY,
    IS_SANDBOX: "",
    CI: "",
    NO_COLOR: "1",
    TERM: "xterm-256color",
  };
}

/**
 * Each CLI pointed at the scripted server the way a user points
 * it at a provider: runtime env, or its own config file under ~.
 */
export function runtimeYaml(cli: Cli, url: string, path = join(CLIENTS, cli)): string {
  const program = `program: ${path}, answer_trust: true`;
  switch (cli) {
    case "claude":
      // As root Claude Code refuses --dangerously-skip-permissions without IS_SANDBOX (inside a container or VM only).
      return `{ preset: claude, ${program}, pass_env: [ANTHROPIC_API_KEY], env: { ANTHROPIC_BASE_URL: "${url}", ` +
        `CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1", IS_SANDBOX: "1" } }`;
    case "codex":
      return `{ preset: codex, ${program}, pass_env: [SCRIPTED_API_KEY] }`;
    case "gemini":
      return `{ preset: gemini, ${program}, pass_env: [GEMINI_API_KEY], ` +
        `env: { GOOGLE_GEMINI_BASE_URL: "${url}", CI: "false" } }`;
    case "opencode":
      // OPENCODE_NO_NPM: its background `npm install @opencode-ai/plugin` into each fresh config folder stays offline.
      return `{ preset: opencode, ${program}, pass_env: [SCRIPTED_API_KEY], env: { ${OPENCODE_NO_NPM}, ` +
        'OPENCODE_DISABLE_MODELS_FETCH: "1" } }';
  }
}

/**
 * opencode 1.18.33 runs npm's installer for `@opencode-ai/plugin` in the background at each start, in every config
 * folder without a node_modules (each agent's is new): where the npm registry answers, it fetches packuments
 * (@opentui, react) for an install that then fails. Offline it fails at once: about 1 CPU s less per start, and the
 * tests touch no network.
 */
export const OPENCODE_NO_NPM = 'npm_config_offline: "true"';

/** The user's own config files under ~ that org copies into each agent's config folder. */
export function homeFiles(url: string): Record<string, string> {
  return {
    ".codex/config.toml":
      `model = "gpt-scripted"\nmodel_provider = "scripted"\n\n[model_providers.scripted]\nname = "scripted"\n` +
      `base_url = "${url}/v1"\nwire_api = "responses"\nenv_key = "SCRIPTED_API_KEY"\n`,
    ".config/opencode/opencode.json": JSON.stringify({
      $schema: "https://opencode.ai/config.json",
      model: "scripted/model",
      provider: {
        scripted: {
          npm: "@ai-sdk/openai-compatible",
          name: "scripted",
          options: { baseURL: `${url}/v1`, apiKey: "{env:SCRIPTED_API_KEY}" },
          models: { model: { name: "model" } },
        },
      },
    }),
  };
}

/** The org's HOME, dir/.home, holding homeFiles and kept out of the repo's git; returned. */
export function writeOrgHome(dir: string, url: string): string {
  const home = join(dir, ".home");
  for (const [file, text] of Object.entries(homeFiles(url))) {
    mkdirSync(join(home, file, ".."), { recursive: true });
    writeFileSync(join(home, file), text);
  }
  writeFileSync(join(dir, ".git/info/exclude"), "/.home/\n", { flag: "a" });
  return home;
}

export interface RealOrg {
  name: string;
  dir: string;
  state: string;
  socket: string;
  server: ModelServer;
  env: Record<string, string>;
  org(args: string[]): Promise<CliResult>;
  status(agent: string): AgentStatus;
  results(): string[][];
  /** The notifier's outcomes for the agent, as written. */
  notifications(agent: string): string;
  /** `org up` in this org's mode: the tmux grid, or node-pty panes with --no-tmux. */
  up(): Promise<CliResult>;
  /** What the agent's pane shows now. */
  screen(agent: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * A research repo whose verifier scores params.txt (higher is better), and an org of real CLIs, one role per entry,
 * each behind the scripted model server. Every role's prompt carries a marker the test can find in what the CLI sent.
 */
export async function createRealOrg(
  roles: { role: string; cli: Cli; kickoff: string; extra?: string }[],
  script: Script,
  mode: "tmux" | "pty" = "tmux",
  program?: (cli: Cli) => string,
): Promise<RealOrg> {
  const server = await startModelServer({ script });
  const runtimes = [...new Set(roles.map((role) => role.cli))]
    .map((cli) => `  ${cli}: ${runtimeYaml(cli, server.url, program?.(cli))}`)
    .join("\n");
  const roleYaml = roles
    .map(
      (role) =>
        `  ${role.role}: { prompt: prompts/${role.role}.md, runtime: ${role.cli}, edits: [params.txt], ` +
          `kickoff: "${role.kickoff}"${role.extra ? `, ${role.extra}` : ""} }`,
    )
    .join("\n");
  const prompts = Object.fromEntries(
    roles.map((role) => [
      `prompts/${role.role}.md`,
      `# Role marker ${role.role}\nYou are {{agent}}. Edit only {{edits}}; run \`org submit -m "idea"\`.\n`,
    ]),
  );
  const { dir, name, socket } = createTestOrg({
    plain: true,
    letter: "r",
    files: { "params.txt": "0.5\n", "score.sh": "#!/bin/sh\necho \"score: $(cat params.txt)\"\n", ...prompts },
    yaml: (name) =>
      `name: ${name}\nrepo: .\nbase: main\ngpus: none\nruntimes:\n${runtimes}\nroles:\n${roleYaml}\n` +
        `verify:\n  command: [sh, score.sh]\n  protected: [score.sh]\n` +
        `  metric: { name: score, pattern: '^score:\\s*([0-9.]+)', goal: maximize }\n` +
        `  repeats: 1\n  keep: { k: 0, min_delta: 0, confirm: 0 }\nmessages: { idle: 500ms }\n`,
  });
  const home = writeOrgHome(dir, server.url);
  const env = orgEnv(home);
  const state = join(dir, "state");
  return {
    name,
    dir,
    state,
    socket,
    server,
    env,
    org: (args) => runOrgAsync(args, { cwd: dir, env, timeoutMs: 120_000 }),
    status: (agent) => JSON.parse(readFileSync(join(state, "agents", agent, "status.json"), "utf8")) as AgentStatus,
    results: () => readResultRows(state),
    notifications: (agent) => {
      try {
        return readFileSync(join(state, "agents", agent, "notifications.jsonl"), "utf8");
      } catch {
        return "(no notifications.jsonl)";
      }
    },
    up: () =>
      runOrgAsync(["up", "--no-attach", ...(mode === "pty" ? ["--no-tmux"] : [])], {
        cwd: dir,
        env,
        timeoutMs: 120_000,
      }),
    async screen(agent) {
      if (mode === "pty") return ptyScreen(join(state, "pty.sock"), agent);
      const panes = tmux(socket, ["list-panes", "-a", "-F", "#{pane_id} #{@org_agent}"]).out.split("\n");
      const id = panes.find((line) => line.endsWith(` ${agent}`))?.split(" ")[0];
      return id ? tmux(socket, ["capture-pane", "-p", "-J", "-t", id]).out : "";
    },
    async close() {
      runOrg(["down"], { cwd: dir, env });
      tmux(socket, ["kill-server"]);
      await server.close();
      removeDir(dir);
    },
  };
}

/** A test's own real-CLI org, once made (`dir` set): org down, its tmux server killed, the folder removed; the model
 * server closed. */
export async function closeOwnRealOrg(
  org: { dir?: string; name: string; env: Record<string, string>; server?: ModelServer },
): Promise<void> {
  const { dir, name, env } = org;
  if (dir) runOrg(["down"], { cwd: dir, env });
  if (dir) tmux(tmuxSocket(name, dir), ["kill-server"]);
  await org.server?.close();
  if (dir) removeDir(dir);
}

async function ptyScreen(socket: string, agent: string): Promise<string> {
  const client = await PtyClient.connect(socket).catch(() => undefined);
  if (!client) return "";
  try {
    const pane = (await client.list()).find((candidate) => candidate.agent === agent);
    return pane ? (await client.screen(pane.id)).join("\n") : "";
  } finally {
    client.close();
  }
}

/**
 * Live processes of this org: every agent program and its
 * children carry ORG_STATE; the daemon and hosts name the folder.
 */
export function processesOf(org: Pick<RealOrg, "dir" | "state">): { pid: number; command: string }[] {
  const found: { pid: number; command: string }[] = [];
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
      const environ = readFileSync(`/proc/${pid}/environ`, "utf8");
      if ((environ.includes(`ORG_STATE=${org.state}\0`) || command.includes(org.dir)) && isRunning(pid))
        found.push({ pid, command });
    } catch {
      // gone between the listing and the read
    }
  }
  return found;
}

/** Which CLI a request came from, by the role marker its rendered prompt carries. */
export const cliOfRequest = (request: ModelRequest): string =>
  /# Role marker (\w+)-r\n/.exec(request.system)?.[1] ?? "";

/**
 * A script whose first `count` requests from each CLI get
 * `fault`, and `then` answers after; `seen` counts them per CLI.
 */
export function faultFirst(count: number, fault: Move, then: Script): { script: Script; seen: Map<string, number> } {
  const seen = new Map<string, number>();
  const script: Script = (request) => {
    const sofar = seen.get(cliOfRequest(request)) ?? 0;
    seen.set(cliOfRequest(request), sofar + 1);
    return sofar < count ? fault : then(request);
  };
  return { script, seen };
}

/** Until every CLI's conversation holds a keep verdict. */
export function waitForKeeps(org: RealOrg, clis: Cli[], what: string): Promise<unknown> {
  const kept = (cli: Cli) =>
    org.server.exchanges.some(
      (exchange) =>
        cliOfRequest(exchange.request) === cli &&
        toolOutputs(exchange.request).some((output) => output.includes("· keep")),
    );
  return Promise.all(
    clis.map((cli) =>
      pollUntil(() => kept(cli), {
        timeoutMs: 150_000,
        intervalMs: 250,
        what: `${cli} to reach its verdict ${what}`,
        explain: () => JSON.stringify(org.status(`${cli}-r-1`)),
      }),
    ),
  );
}

/** CPU seconds used by the agent's live processes and the children they waited for: a figure the load moves little. */
export function cpuSecondsOf(org: Pick<RealOrg, "state">, agent: string): number {
  let ticks = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, "utf8");
      if (!environ.includes(`ORG_STATE=${org.state}\0`) || !environ.includes(`ORG_AGENT=${agent}\0`)) continue;
      // utime, stime, cutime, cstime: fields 14–17, counted after the command's closing parenthesis.
      const fields = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]!.split(" ");
      ticks += fields.slice(11, 15).reduce((sum, field) => sum + Number(field), 0);
    } catch {
      // gone between the listing and the read
    }
  }
  return ticks / 100;
}
