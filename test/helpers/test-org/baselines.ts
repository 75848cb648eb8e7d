// `org up`, then wait for what every verifier test waits for first: each agent's baseline judged (its ledger).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { runOrg } from "../org-cli.js";
import { pollUntil } from "../poll.js";
import type { TestOrg } from "./pane.js";

export async function upUntilBaselines(org: TestOrg, agents: readonly string[], timeoutMs = 30_000): Promise<void> {
  const up = runOrg(["up"], { cwd: org.dir });
  expect(up.code, up.stderr).toBe(0);
  const judged = (agent: string) => existsSync(join(org.dir, "state", "agents", agent, "ledger.json"));
  await pollUntil(() => agents.every(judged), { what: `the baselines of ${agents.join(", ")}`, timeoutMs });
}
