// The demo org of fault runs (built by createTestOrg({ demo })): starting it, watching it, removing it.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runOrg } from "../helpers/org-cli.js";
import { pollUntil } from "../helpers/poll.js";
import { removeDir } from "../helpers/temp-repo.js";
import { tmux, type DemoOrg } from "../helpers/test-org/index.js";

export function startDemo(org: DemoOrg): void {
  const result = runOrg(["demo", "--no-attach"], { cwd: org.dir });
  if (result.code !== 0) throw new Error(`org demo failed: ${result.stderr}`);
}

export function countRows(org: DemoOrg): number {
  const file = join(org.dir, "state/results.tsv");
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean).length - 1 : 0;
}

/** Wait until results.tsv has grown by `more` rows: the org is making progress. */
export async function waitForRows(org: DemoOrg, more: number, timeoutMs = 90_000): Promise<void> {
  const target = countRows(org) + more;
  await pollUntil(() => countRows(org) >= target, {
    what: `${target} rows in results.tsv`,
    timeoutMs,
    intervalMs: 200,
  });
}

export function readDaemonPid(org: DemoOrg): number | undefined {
  const file = join(org.dir, "state/daemon.json");
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as { pid: number }).pid : undefined;
}

/** What the daemon's control pane shows, scrollback included: where it tells a person what went wrong. */
export function readControlPane(org: DemoOrg): string {
  const record = JSON.parse(readFileSync(join(org.dir, "state/org.json"), "utf8")) as { controlPaneId?: string };
  return record.controlPaneId
    ? tmux(org.socket, ["capture-pane", "-p", "-J", "-S", "-", "-t", record.controlPaneId]).out
    : "";
}

/** What every agent's pane shows, scrollback included: where an agent's `org submit` says what went wrong. */
export function readAgentPanes(current: DemoOrg): string {
  return listAgentPanes(current).join("\n");
}

/** Each agent's pane, scrollback included, one string an agent. */
export function listAgentPanes(current: DemoOrg): string[] {
  const record = JSON.parse(readFileSync(join(current.dir, "state/org.json"), "utf8")) as {
    agents: { paneId?: string }[];
  };
  return record.agents
    .filter((agent) => agent.paneId)
    .map((agent) => tmux(current.socket, ["capture-pane", "-p", "-J", "-S", "-", "-t", agent.paneId!]).out);
}

/** No request waits in state/queue: whatever was submitted has its verdict. */
export function queueIsEmpty(org: DemoOrg): boolean {
  const queue = join(org.dir, "state/queue");
  return !existsSync(queue) || readdirSync(queue).every((name) => !name.endsWith(".json"));
}

/**
 * What afterEach does: `org down`, the tmux server for sure,
 * and the folder unless ORG_FAULTS_KEEP asks for a post-mortem.
 */
export function removeDemoOrg(org: DemoOrg): void {
  runOrg(["down"], { cwd: org.dir });
  tmux(org.socket, ["kill-server"]);
  if (process.env.ORG_FAULTS_KEEP) console.log(`kept ${org.dir}`);
  else removeDir(org.dir);
}
