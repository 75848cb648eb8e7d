import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { tmuxSocket } from "../../src/domain/paths.js";
import { FIXTURES, runOrg } from "./org-cli.js";
import { createRepo, removeDir } from "./temp-repo.js";

export const PROMPT = "# Researcher\nYou are {{agent}} ({{role}}) on GPU {{gpu}}. Edit only {{edits}}.\n";

/** A research repo with org.yaml at its root, and a unique org name so every test has its own tmux socket. */
export function createOrgRepo(orgYaml: (name: string) => string, files: Record<string, string> = {}): { dir: string; name: string; socket: string } {
  const name = `t${process.pid}x${Math.floor(Math.random() * 1e6)}`;
  const dir = createRepo({ "train.py": "print('val_bpb: 1.0')\n", "prepare.py": "# fixed\n", "prompts/researcher.md": PROMPT, "org.yaml": orgYaml(name), ...files });
  return { dir, name, socket: tmuxSocket(name, dir) };
}

/** org.yaml of `count` researchers whose agent prints its environment and sleeps; `role` adds keys to the researcher role. */
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
    return { code: 0, out: execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }) };
  } catch (error) {
    return { code: (error as { status?: number }).status ?? 1, out: "" };
  }
}

export function readJsonFile<T>(path: string): T {
  return JSON.parse(readFileSync(path, "utf8")) as T;
}

/** Stop whatever a test left: `org down`, then the server itself, then the files. */
export function teardownOrg(org: { dir: string; socket: string } | undefined): void {
  if (!org) return;
  runOrg(["down"], { cwd: org.dir });
  tmux(org.socket, ["kill-server"]);
  removeDir(org.dir);
}
