import { OrgError } from "../../domain/errors.js";
import type { AgentTrace, TracedResult } from "../../domain/traces/index.js";
import { orgPaths } from "../../domain/paths.js";
import { readRecord } from "../../adapters/store/org-record.js";
import { readTracedResults } from "../../adapters/store/trace-results.js";
import { readAgentTrace } from "../../adapters/traces/read-trace.js";

/**
 * What `org traces` reads: the org's result rows and the transcripts of the agent asked for (by name, or as the
 * agent whose row the experiment is), or of every agent. An unknown agent or experiment is refused with the fix.
 */
export async function loadTraces(root: string, opts: { agent?: string; experiment?: string }) {
  const record = await readRecord(root);
  const names = record.agents.map((agent) => agent.name);
  if (opts.agent && !names.includes(opts.agent)) {
    throw new OrgError(`no agent named "${opts.agent}" — choose one of: ${names.join(", ")}`, "unknown-agent");
  }
  const state = orgPaths(root).state;
  const rows = await readTracedResults(root);
  const agent = opts.agent ?? (opts.experiment ? findAgentOf(rows, opts.experiment) : undefined);
  const read = async (name: string) => [name, await readAgentTrace(state, name)] as const;
  const traces: ReadonlyMap<string, AgentTrace> = new Map(await Promise.all((agent ? [agent] : names).map(read)));
  return { agent, rows, traces };
}

// --experiment without an agent: the agent whose row it is.
function findAgentOf(rows: readonly TracedResult[], name: string): string {
  const commit = /^[0-9a-f]{7,40}$/.test(name);
  const row = rows.find((candidate) => candidate.id === name || (commit && candidate.commit.startsWith(name)));
  const list = "`org tried` lists every experiment with its commit";
  if (!row) throw new OrgError(`no experiment "${name}" in the org's results — ${list}`, "unknown-experiment");
  return row.agent;
}
