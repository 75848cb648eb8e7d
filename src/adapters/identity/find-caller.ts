import { readOptionalRecord } from "../store/org-record.js";
import { BROKERED_ENV, decideCaller, type AgentRef } from "../../domain/identity/decide-caller.js";
import { findPaneOwner, type PaneRoot } from "../../domain/identity/pane-owner.js";
import type { Sender } from "../../domain/messages/wiring.js";
import { OrgError } from "../../domain/errors.js";
import { orgPaths } from "../../domain/paths.js";
import type { AgentRecord } from "../../domain/state.js";
import { readAgentStatuses } from "../../domain/lifecycle/agent-status-file.js";
import { filesPort } from "../fs/files-port.js";
import { readAncestry } from "./process-ancestry.js";

/**
 * The one way a command finds who runs it: the agent whose pane it runs in, found by one walk up /proc against the
 * pane pids status.json records, else the agent whose outbox the daemon ran it for (a sandboxed agent's command, no
 * longer under its pane: a pane found wins, so naming another there changes nothing), else whom ORG_AGENT names, else
 * the person. A refusal ends the command before it changes anything. `roster` is the org's agents as the command
 * knows them (org.yaml, or org.json when running).
 */
export async function findCaller(
  root: string, roster: readonly AgentRef[], env: Record<string, string | undefined> = process.env,
): Promise<Sender> {
  const envAgent = env.ORG_AGENT || undefined;
  const paneAgent = await findPaneAgent(root, envAgent);
  const decision = decideCaller(roster, paneAgent ?? (env[BROKERED_ENV] || undefined), envAgent);
  if (decision.kind === "refused") throw new OrgError(decision.reason, "not-agent");
  return decision.kind === "agent" ? { kind: "agent", agent: decision.agent, role: decision.role } : { kind: "person" };
}

async function findPaneAgent(root: string, hint: string | undefined): Promise<string | undefined> {
  const paths = orgPaths(root);
  // Missing (never started) or torn by a full disk: no pane is known from it.
  const record = await readOptionalRecord(root).catch(() => undefined);
  // Slurm agents run on other nodes: no process of theirs is among this machine's, so ORG_AGENT is all there is.
  if (!record || record.backend === "slurm") return undefined;
  const ancestors = readAncestry();
  const readRoots = async (agents: readonly AgentRecord[]) => {
    const statuses = await readAgentStatuses(filesPort, paths.state, agents.map((agent) => agent.name));
    return [...statuses].flatMap(([agent, status]): PaneRoot[] =>
      typeof status?.pid === "number" ? [{ agent, pid: status.pid, startedAt: status.startedAt }] : []);
  };
  // The agent ORG_AGENT names first: a genuine agent's command then reads one status.json rather than every one.
  const named = findPaneOwner(ancestors, await readRoots(record.agents.filter((agent) => agent.name === hint)));
  return named ?? findPaneOwner(ancestors, await readRoots(record.agents.filter((agent) => agent.name !== hint)));
}
