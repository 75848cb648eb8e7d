import { SAFE_NAME } from "../config/index.js";
import type { AgentRecord } from "../state.js";

/**
 * Set by the daemon's outbox broker alone: the agent whose outbox a sandboxed command came
 * through, which stands for its pane.
 */
export const BROKERED_ENV = "ORG_BROKERED_FOR";

/** An agent a caller may be: its name and role, from org.yaml or state/org.json. */
export type AgentRef = Pick<AgentRecord, "name" | "role">;

/** Who runs a command: an agent, a person, or refused, each with why. */
export type CallerDecision =
  | { kind: "agent"; agent: string; role: string; reason: string }
  | { kind: "person"; reason: string }
  | { kind: "refused"; reason: string };

/**
 * The pane decides: a command inside agent A's pane acts as A whatever ORG_AGENT says, and ORG_AGENT naming anyone
 * else there is refused. Outside every pane (a person's shell, a Slurm node, a job the agent left behind) ORG_AGENT
 * names whom the caller acts as: the person owns the org's files anyway, and unset it acts as the person.
 */
export function decideCaller(
  roster: readonly AgentRef[], paneAgent: string | undefined, envAgent: string | undefined,
): CallerDecision {
  if (paneAgent !== undefined) {
    if (envAgent && envAgent !== paneAgent) {
      const shown = SAFE_NAME.test(envAgent) ? envAgent : JSON.stringify(envAgent);
      return {
        kind: "refused",
        reason: `you are ${paneAgent} (this pane's agent); ORG_AGENT=${shown} names another agent — unset it`,
      };
    }
    const found = roster.find((agent) => agent.name === paneAgent);
    if (!found) return {
      kind: "refused",
      reason: `you are ${paneAgent} (this pane's agent), which org.yaml no longer lists — `
        + `\`org reload\` applies org.yaml and stops it`,
    };
    return { kind: "agent", agent: found.name, role: found.role, reason: "the command runs in its pane" };
  }
  if (!envAgent) return { kind: "person", reason: "in no agent's pane, with ORG_AGENT unset" };
  const found = roster.find((agent) => agent.name === envAgent);
  if (!found) return {
    kind: "refused",
    reason: `$ORG_AGENT is ${JSON.stringify(envAgent)}, which is not an agent of this org — `
      + `unset ORG_AGENT to act as a person`,
  };
  return { kind: "agent", agent: found.name, role: found.role, reason: "in no agent's pane, named by ORG_AGENT" };
}
