// `org builtin chief`'s real world: the running org's config for its juniors, the ledger for what was judged,
// `org task` to tell them.
import { setTimeout as delay } from "node:timers/promises";
import { readText } from "../../adapters/fs/files.js";
import { processRunner, type Runner } from "../../adapters/process.js";
import { readAbRun } from "../../adapters/store/ab-run.js";
import { createConfigReader } from "../../adapters/store/run-config.js";
import { readTriedLedger } from "../../adapters/store/tried-ledger-file.js";
import { listAgents } from "../../domain/lifecycle/plan-agents.js";
import { filterOwnHalf } from "../../domain/config-versions/ab-run-record.js";
import type { ChiefWorld } from "../../roles/index.js";

/**
 * The chief's world from its agent environment; `org` is the argv that runs an org command (the sandbox's shim
 * or this binary).
 */
export function chiefWorld(
  env: Record<string, string | undefined>, org: string[], runner: Runner = processRunner,
): ChiefWorld {
  const { ORG_ROOT: root = process.cwd(), ORG_STATE: state, ORG_ROLE: role, ORG_AGENT: agent = "" } = env;
  // Loading the config probes git: the chief looks every few seconds, so it loads again only when org.yaml changes.
  const reader = createConfigReader(root, state);
  return {
    readText,
    async listJuniors() {
      const read = await reader.read();
      if ("problems" in read) return [];
      const config = read.loaded.config;
      return listAgents(config)
        .filter((other) => config.roles[other.role]?.reports_to === role)
        .map((other) => other.name);
    },
    async listJudged() {
      if (state === undefined) return [];
      const entries = filterOwnHalf(await readAbRun(state), agent, (await readTriedLedger(state)).entries);
      return entries.map((entry) => ({
        description: entry.description, status: entry.status, duplicate: entry.duplicateOf !== undefined,
      }));
    },
    async setTask(junior, body) {
      // In the chief's own process group: stopping the chief stops a task command it is waiting on.
      const result = await runner.run([...org, "task", junior, body], { cwd: process.cwd(), sameGroup: true });
      const output = `${result.stdout}${result.stderr}`.trim();
      return { ok: result.spawnError === undefined && result.exitCode === 0, output: result.spawnError ?? output };
    },
    delay: (ms) => delay(ms),
  };
}
