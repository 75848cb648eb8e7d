// What every test org shares once built: its fixture programs, its tmux server, its files, and its teardown.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentStatus } from "../../../src/domain/state.js";
import { FIXTURES, runOrg } from "../org-cli.js";
import { removeDir } from "../temp-repo.js";

/** An org the builder made: its folder, its unique name, and the tmux socket that name and folder give. */
export interface TestOrg {
  dir: string;
  name: string;
  socket: string;
}

export const PROMPT = "# Researcher\nYou are {{agent}} ({{role}}) on GPU {{gpu}}. Edit only {{edits}}.\n";

/** org.yaml of `count` researchers whose agent prints its environment and sleeps; `role` adds researcher keys. */
export const printerOrgYaml = (count: number, role = "") => (name: string) => `name: ${name}
repo: .
base: main
gpus: none
runtimes:
  printer: { command: ["${bin("print-env-sleep")}"] }
roles:
  researcher: { prompt: prompts/researcher.md, runtime: printer, count: ${count}${role} }
`;

export function bin(name: string): string {
  return `${FIXTURES}/bin/${name}`;
}

export function tmux(socket: string, args: string[]): { code: number; out: string } {
  try {
    const stdio: ["ignore", "pipe", "ignore"] = ["ignore", "pipe", "ignore"];
    const out = execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8", stdio });
    return { code: 0, out };
  } catch (error) {
    return { code: (error as { status?: number }).status ?? 1, out: "" };
  }
}

export function readJsonFile<T>(path: string): T {
  return JSON.parse(readFileSync(path, "utf8")) as T;
}

/**
 * What a timed-out wait prints after the timeline: whether the org's tmux server still answers, and the last lines of
 * the daemon's and the keeper's logs (a daemon gone is otherwise told only as "org is down").
 */
export function describeOrgProcesses(org: TestOrg): string {
  const tail = (file: string) => {
    const path = join(org.dir, "state", file);
    const lines = existsSync(path) ? readFileSync(path, "utf8").trimEnd().split("\n").slice(-15) : ["(none)"];
    return [`-- ${file}:`, ...lines].join("\n");
  };
  const server = tmux(org.socket, ["list-panes", "-s", "-F", "#{pane_id} #{@org_agent} dead=#{pane_dead}"]);
  const panes = server.code === 0 ? server.out.trimEnd() : `no tmux server answers (exit ${server.code})`;
  return [`-- tmux panes:\n${panes}`, tail("daemon.log"), tail("keeper.log")].join("\n");
}

/** results.tsv's rows under its header, each split into its fields. */
export function readResultRows(state: string): string[][] {
  return readFileSync(join(state, "results.tsv"), "utf8").trim().split("\n").slice(1).map((line) => line.split("\t"));
}

/** What a refused reload must leave as it was: each pane (`format`), org.json, and each of `agents`' program pid. */
export function readOrgSnapshot(org: TestOrg, agents: readonly string[], format: string) {
  const state = join(org.dir, "state");
  return {
    panes: tmux(org.socket, ["list-panes", "-s", "-t", `org-${org.name}`, "-F", format]).out,
    record: readFileSync(join(state, "org.json"), "utf8"),
    programs: agents.map((agent) => readJsonFile<AgentStatus>(join(state, "agents", agent, "status.json")).pid),
  };
}

/** Stop whatever a test left: `org down`, then the server itself, then the files. */
export function teardownOrg(org: { dir: string; socket: string } | undefined): void {
  if (!org) return;
  runOrg(["down"], { cwd: org.dir });
  tmux(org.socket, ["kill-server"]);
  removeDir(org.dir);
}

/** A unique org name, so every test has its own tmux socket; the letter says which kind of test made it. */
export function uniqueName(letter: string, range = 1e6): string {
  return `${letter}${process.pid}x${Math.floor(Math.random() * range)}`;
}

/** org.yaml of researchers whose agent idles (the test plays the agent); `role` adds role keys, `rest` follows. */
export const idleOrgYaml = (role: string, rest: string) => (name: string) => `name: ${name}
repo: .
base: main
gpus: none
runtimes:
  idle: { command: ["${bin("forever")}"], restart: never }
roles:
  researcher: { prompt: prompts/researcher.md, runtime: idle${role} }
${rest}`;

/** What a jobs org (jobsOrgYaml) differs in: role name → keys after `runtime: jobs`, a verify of train.sh's val_bpb. */
interface JobsOrgOptions {
  roles: Record<string, string>;
  verify?: { parallel?: number; k?: number };
  /** Sections between the verify and the sandbox. */
  rest?: string;
  /** Folders the agents' sandboxes may read, besides the default. */
  read?: string[];
}

/**
 * org.yaml of agents whose tool calls are the shell jobs put in `jobs`/<agent> (runInPane, test/helpers/pane-jobs.ts):
 * every command a test runs there is its pane's, in its real sandbox.
 */
export const jobsOrgYaml = (jobs: string, options: JobsOrgOptions) => (name: string) => {
  const roles = Object.entries(options.roles)
    .map(([role, keys]) => `  ${role}: { prompt: prompts/researcher.md, runtime: jobs${keys} }\n`).join("");
  const { parallel, k = 0 } = options.verify ?? {};
  const verify = options.verify ? `verify:
  command: [sh, train.sh]
  metric: { name: val_bpb, pattern: '^val_bpb:\\s*([0-9.]+)', goal: minimize }
  timeout: 30s
${parallel ? `  parallel: ${parallel}\n` : ""}  repeats: 1
  keep: { k: ${k}, min_delta: 0, confirm: 0 }
` : "";
  const read = options.read ? `read: [${options.read.join(", ")}], ` : "";
  const runtime = `  jobs: { command: ["${bin("run-jobs")}", "${jobs}"], restart: never }`;
  // The jobs folder lies in /tmp, the agents' own in the sandbox: declared, it is the host's.
  const sandbox = `sandbox: { ${read}write: ["${jobs}"] }`;
  return `name: ${name}\ngpus: none\nruntimes:\n${runtime}\nroles:\n${roles}${verify}${options.rest ?? ""}${sandbox}\n`;
};
