import { explainUnsafeName, findClosest, SAFE_NAME, type OrgConfig, type RoleConfig } from "../config/index.js";
import { listAgents } from "../lifecycle/plan-agents.js";

/** Who sends: an agent of the org, or a person (in no agent's pane, ORG_AGENT unset), who may message anyone. */
export type Sender = { kind: "agent"; agent: string; role: string } | { kind: "person" };

export type Recipients = { ok: true; agents: string[]; role: string } | { ok: false; reason: string };

/**
 * The wiring rule: an agent may message its own role, the roles in its talks_to, the role it
 * reports to, and the roles that report to it.
 */
export function mayMessage(roles: Record<string, RoleConfig>, from: string, to: string): boolean {
  const spec = roles[from];
  if (!spec) return false;
  return from === to || spec.talks_to.includes(to) || spec.reports_to === to || roles[to]?.reports_to === from;
}

/** The agents a message to `target` (an agent or a role) reaches, or why it may not be sent. */
export function resolveRecipients(config: OrgConfig, sender: Sender, target: string): Recipients {
  if (!SAFE_NAME.test(target)) {
    return {
      ok: false,
      reason: `${explainUnsafeName("recipient", target).message} — `
        + `name an agent such as ${listAgents(config)[0]?.name ?? "researcher-1"} or a role such `
        + `as ${Object.keys(config.roles)[0] ?? "researcher"}`,
    };
  }
  const agents = listAgents(config);
  const agent = agents.find((candidate) => candidate.name === target);
  const role = agent?.role ?? (target in config.roles ? target : undefined);
  if (role === undefined) {
    const closest = findClosest(target, [...Object.keys(config.roles), ...agents.map((candidate) => candidate.name)]);
    const fix = closest
      ? `did you mean "${closest}"?`
      : `name a role (${Object.keys(config.roles).join(", ")}) or one of its agents, such as ${agents[0]?.name}`;
    return { ok: false, reason: `no agent or role named "${target}" in org.yaml — ${fix}` };
  }
  if (sender.kind === "agent" && !mayMessage(config.roles, sender.role, role)) {
    return {
      ok: false,
      reason: `${sender.agent} may not message ${target}: role ${sender.role} is not wired to role ${role} — `
        + `add talks_to: [${role}] to roles.${sender.role} in org.yaml`,
    };
  }
  // A message to one's own role goes to the others in it, not back to the sender.
  const reached = agent
    ? [agent.name]
    : agents.filter((candidate) =>
      candidate.role === role && !(sender.kind === "agent" && candidate.name === sender.agent))
      .map((candidate) => candidate.name);
  if (reached.length === 0) return {
    ok: false,
    reason: `role ${role} has no agent but you — send to another role, or raise roles.${role}.count`,
  };
  return { ok: true, agents: reached, role };
}

/** An agent of this org by name, or why the name is not one. */
export function resolveAgent(config: OrgConfig, name: string): { ok: true; agent: string; role: string } | {
  ok: false; reason: string;
} {
  const agents = listAgents(config);
  const example = agents[0]?.name ?? "researcher-1";
  if (!SAFE_NAME.test(name)) return {
    ok: false,
    reason: `${explainUnsafeName("agent", name).message} — name an agent such as ${example}`,
  };
  const found = agents.find((agent) => agent.name === name);
  if (found) return { ok: true, agent: found.name, role: found.role };
  const closest = findClosest(name, agents.map((agent) => agent.name));
  const listed = agents.length <= 8
    ? agents.map((agent) => agent.name).join(", ")
    : `${agents.slice(0, 8).map((agent) => agent.name).join(", ")}, …`;
  return {
    ok: false,
    reason: `no agent named "${name}" in org.yaml `
      + `— ${closest ? `did you mean "${closest}"?` : `the agents are ${listed}`}`,
  };
}

/** The name a sender signs with: its agent name, or "person". */
export function senderName(sender: Sender): string {
  return sender.kind === "agent" ? sender.agent : "person";
}
