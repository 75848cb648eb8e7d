// The demo org in a temp folder, sized for fault runs: CPU, built-in researchers, short verify runs.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { tmuxSocket } from "../../src/domain/paths.js";
import { PACKAGE_ROOT, runOrg } from "../helpers/org-cli.js";
import { tmux } from "../helpers/org-fixture.js";
import { pollUntil } from "../helpers/poll.js";
import { makeTempDir, removeDir, writeFiles } from "../helpers/temp-repo.js";

export interface DemoOrg {
  root: string;
  repo: string;
  name: string;
  socket: string;
}

/** org.yaml of the demo with a unique name, `count` researchers (plus one agent per extra role, named after its runtime), no GPUs and a short verify timeout. */
export function createDemoOrg(options: { count?: number; runtime?: string; verifyCommand?: string[]; timeout?: string; extraRoles?: Record<string, string>; supervisor?: string } = {}): DemoOrg {
  const root = makeTempDir("org-faults-");
  const name = `f${process.pid}x${Math.floor(Math.random() * 1e5)}`;
  const runtime = options.runtime ?? "{ builtin: hillclimb, restart: always }";
  const verify = JSON.stringify(options.verifyCommand ?? ["node", "train.mjs"]);
  writeFiles(root, {
    "org.yaml": `name: ${name}
repo: .demo/research
base: main
gpus: none
runtimes:
  hill: ${runtime}
${Object.entries(options.extraRoles ?? {}).map(([role, runtime]) => `  ${role}: ${runtime}\n`).join("")}roles:
  researcher: { prompt: prompts/researcher.md, runtime: hill, count: ${options.count ?? 2}, edits: [train.mjs] }
${Object.keys(options.extraRoles ?? {}).map((role) => `  ${role}: { prompt: prompts/researcher.md, runtime: ${role}, count: 1, edits: [train.mjs] }\n`).join("")}verify:
  command: ${verify}
  protected: [prepare.mjs]
  metric: { name: val_loss, pattern: '^val_loss:\\s*([-+0-9.eE]+)', goal: minimize }
  timeout: ${options.timeout ?? "1m"}
  parallel: 2
  repeats: 1
  keep: { k: 0, min_delta: 0, confirm: 0 }
supervisor: ${options.supervisor ?? "{ backoff: 1s, max_backoff: 5s, max_restarts: 100, healthy_after: 10s }"}
`,
  });
  mkdirSync(join(root, "prompts"), { recursive: true });
  copyFileSync(join(PACKAGE_ROOT, "prompts/researcher.md"), join(root, "prompts/researcher.md"));
  return { root, repo: join(root, ".demo/research"), name, socket: tmuxSocket(name, root) };
}

export function startDemo(org: DemoOrg): void {
  const result = runOrg(["demo", "--no-attach"], { cwd: org.root });
  if (result.code !== 0) throw new Error(`org demo failed: ${result.stderr}`);
}

export function countRows(org: DemoOrg): number {
  const file = join(org.root, "state/results.tsv");
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean).length - 1 : 0;
}

/** Wait until results.tsv has grown by `more` rows: the org is making progress. */
export async function waitForRows(org: DemoOrg, more: number, timeoutMs = 90_000): Promise<void> {
  const target = countRows(org) + more;
  await pollUntil(() => countRows(org) >= target, { what: `${target} rows in results.tsv`, timeoutMs, intervalMs: 200 });
}

export function readDaemonPid(org: DemoOrg): number | undefined {
  const file = join(org.root, "state/daemon.json");
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as { pid: number }).pid : undefined;
}

/** What the daemon's control pane shows, scrollback included: where it tells a person what went wrong. */
export function readControlPane(org: DemoOrg): string {
  const record = JSON.parse(readFileSync(join(org.root, "state/org.json"), "utf8")) as { controlPaneId?: string };
  return record.controlPaneId ? tmux(org.socket, ["capture-pane", "-p", "-J", "-S", "-", "-t", record.controlPaneId]).out : "";
}

/** No request waits in state/queue: whatever was submitted has its verdict. */
export function queueIsEmpty(org: DemoOrg): boolean {
  const queue = join(org.root, "state/queue");
  return !existsSync(queue) || readdirSync(queue).every((name) => !name.endsWith(".json"));
}

/** What afterEach does: `org down`, the tmux server for sure, and the folder unless ORG_FAULTS_KEEP asks for a post-mortem. */
export function removeDemoOrg(org: DemoOrg): void {
  runOrg(["down"], { cwd: org.root });
  tmux(org.socket, ["kill-server"]);
  if (process.env.ORG_FAULTS_KEEP) console.log(`kept ${org.root}`);
  else removeDir(org.root);
}
