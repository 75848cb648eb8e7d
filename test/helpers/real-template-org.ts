import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { TemplateName } from "../../src/roles/index.js";
import { tmuxSocket } from "../../src/domain/paths.js";
import { startModelServer, type Exchange, type ModelServer, type Script } from "./model-server/index.js";
import { runOrg, runOrgAsync, type CliResult } from "./org-cli.js";
import { orgEnv, runtimeYaml, writeOrgHome, type Cli } from "./real-org.js";
import { removeDir } from "./temp-repo.js";
import { createTestOrg, readResultRows, tmux } from "./test-org/index.js";

export interface TemplateOrg {
  dir: string;
  state: string;
  server: ModelServer;
  org(args: string[]): Promise<CliResult>;
  /** The requests of one agent's conversation (those offering tools), oldest first. */
  requestsOf(agent: string): Exchange[];
  results(): string[][];
  read(path: string): string;
  /** What the agent's pane shows now. */
  screen(agent: string): string;
  /** For a timeout's message: every agent's state, latest turns, notifications and screen, then the log's end. */
  explain(): string;
  close(): Promise<void>;
}

/** The agent a request came from: every template prompt opens with `# You are <agent>, `. */
export function agentOf(system: string): string {
  return /^# You are ([\w-]+), /m.exec(system)?.[1] ?? "";
}

/**
 * A repo set up by `org init --template` as a person runs it, then each role's runtime moved to a real CLI behind the
 * scripted model server, on CPU, with one baseline run and no confirmation runs so a verdict takes a second.
 */
export async function createRealTemplateOrg(
  template: TemplateName,
  clis: Record<string, Cli>,
  script: Script,
  edits: [from: string, to: string][] = [],
): Promise<TemplateOrg> {
  const server = await startModelServer({ script });
  // The real python's folder first: its pyenv shim takes seconds a call on a busy machine.
  const python = execFileSync("python", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();
  const envOf = (dir: string) => ({ ...orgEnv(join(dir, ".home")), PATH: `${dirname(python)}:${process.env.PATH}` });
  const runtimes = [...new Set(Object.values(clis))]
    .map((cli) => `  ${cli}: ${runtimeYaml(cli, server.url)}\n`)
    .join("");
  const { dir } = createTestOrg({
    template,
    env: envOf,
    edits: [
      ["gpus: auto\n", "gpus: none\n"],
      ["  claude: { preset: claude }\n", runtimes],
      ["  timeout: 10m\n", "  timeout: 10m\n  repeats: 1\n  keep: { k: 0, min_delta: 0, confirm: 0 }\n"],
      ...edits,
    ],
    rewrite: (yaml) =>
      yaml.replace(
        /^ {2}([\w-]+):\n {4}prompt: (\S+)\n {4}runtime: claude\n/gm,
        (_, role: string, prompt: string) => `  ${role}:\n    prompt: ${prompt}\n    runtime: ${clis[role]}\n`,
      ),
  });
  const env = envOf(dir);
  writeOrgHome(dir, server.url);
  const state = join(dir, "state");
  const org: TemplateOrg = {
    dir,
    state,
    server,
    org: (args) => runOrgAsync(args, { cwd: dir, env, timeoutMs: 120_000 }),
    requestsOf: (agent) =>
      server.exchanges.filter(
        (exchange) => exchange.request.tools.length > 0 && agentOf(exchange.request.system) === agent,
      ),
    results: () => readResultRows(state),
    read: (path) => {
      try {
        return readFileSync(join(state, path), "utf8");
      } catch {
        return `(no ${path})`;
      }
    },
    screen: (agent) => {
      const panes = tmux(tmuxSocket(template, dir), ["list-panes", "-a", "-F", "#{pane_id} #{@org_agent}"]).out.split(
        "\n",
      );
      const id = panes.find((line) => line.endsWith(` ${agent}`))?.split(" ")[0];
      return id ? tmux(tmuxSocket(template, dir), ["capture-pane", "-p", "-J", "-t", id]).out : "(no pane)";
    },
    explain() {
      const agents = existsSync(join(state, "agents")) ? readdirSync(join(state, "agents")).sort() : [];
      const turns = (agent: string) =>
        org
          .requestsOf(agent)
          .slice(-6)
          .map((exchange) => `  ${exchange.move.kind}: ${JSON.stringify(exchange.request.turns.at(-1)).slice(0, 300)}`);
      const screen = (agent: string) => org.screen(agent).split("\n").filter((line) => line.trim() !== "").slice(-12);
      const parts = agents.map((agent) =>
        [
          `== ${agent}: ${org.read(`agents/${agent}/status.json`).replace(/\s+/g, " ").slice(0, 200)}`,
          ...turns(agent),
          org.read(`agents/${agent}/notifications.jsonl`),
          ...screen(agent),
        ].join("\n"),
      );
      return `${parts.join("\n")}\n== log.md\n${org.read("log.md").slice(-1500)}`;
    },
    async close() {
      runOrg(["down"], { cwd: dir, env });
      tmux(tmuxSocket(template, dir), ["kill-server"]);
      await server.close();
      removeDir(dir);
    },
  };
  return org;
}
