// `org up`, then wait for what a test needs first: each agent's baseline judged (its ledger), what every verifier test
// waits for; or each agent running.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import type { AgentStatus } from "../../../src/domain/state.js";
import { runOrg } from "../org-cli.js";
import { pollUntil } from "../poll.js";
import { readJsonFile, type TestOrg } from "./pane.js";

export async function upUntilBaselines(org: TestOrg, agents: readonly string[], timeoutMs = 30_000): Promise<void> {
  const up = runOrg(["up"], { cwd: org.dir });
  expect(up.code, up.stderr).toBe(0);
  const judged = (agent: string) => existsSync(join(org.dir, "state", "agents", agent, "ledger.json"));
  await pollUntil(() => agents.every(judged), { what: `the baselines of ${agents.join(", ")}`, timeoutMs });
}

/** `org up --no-attach` and `args`, then each of `agents` running under a pid of its own. */
export async function upUntilRunning(org: TestOrg, agents: readonly string[], args: string[] = []): Promise<void> {
  const up = runOrg(["up", "--no-attach", ...args], { cwd: org.dir });
  expect(up.code, up.stderr).toBe(0);
  const status = (agent: string) => readJsonFile<AgentStatus>(join(org.dir, "state", "agents", agent, "status.json"));
  const running = (agent: string) => status(agent).state === "running" && status(agent).pid !== null;
  await pollUntil(() => agents.every(running), { what: "every agent running", timeoutMs: 30_000 });
}
