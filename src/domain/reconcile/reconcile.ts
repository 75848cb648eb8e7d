import { describeChanges } from "./changes.js";
import type { Action, DesiredOrg, ObservedOrg, ReconcileResult, Refusal } from "./org-states.js";

const RESTART_ORG = "restart the org: org down && org up";

/**
 * The actions that make the running org what org.yaml now says: stop agents no longer wanted,
 * restart those whose program, environment, prompt or lease changed, start the new ones, re-tile.
 * Keys the running org is built on (name, repo, base) cannot change live: that is a refusal.
 */
export function reconcile(desired: DesiredOrg, observed: ObservedOrg): ReconcileResult {
  const refusals = findRefusals(desired, observed);
  if (refusals.length > 0) return { kind: "refused", refusals };
  const wanted = new Map(desired.agents.map((agent) => [agent.name, agent]));
  const running = new Map(observed.agents.map((agent) => [agent.record.name, agent]));
  const counts = {
    before: countRoles(observed.agents.map((agent) => agent.record.role)),
    after: countRoles(desired.agents.map((agent) => agent.role)),
  };
  const removes: Action[] = observed.agents
    .filter((agent) => !wanted.has(agent.record.name))
    .map((agent) => ({ kind: "remove-agent", agent, reason: explainCount(agent.record.role, counts) }));
  const restarts: Action[] = [];
  const adds: Action[] = [];
  for (const agent of desired.agents) {
    const current = running.get(agent.name);
    if (!current) {
      adds.push({ kind: "add-agent", agent, reason: explainCount(agent.role, counts) });
    } else if (current.heldByStop) {
      // A stopped org stays stopped: the edit is written for the resume, and nothing starts now.
      const changes = describeChanges(current, agent);
      if (changes.length > 0) restarts.push({
        kind: "update-held-agent",
        agent,
        observed: current,
        changes,
        reason: changes.join("; "),
      });
    } else if (!current.pane) {
      adds.push({ kind: "add-agent", agent, reason: "its pane is gone" });
    } else {
      const changes = describeChanges(current, agent);
      if (changes.length > 0) restarts.push({
        kind: "restart-agent",
        agent,
        observed: current,
        changes,
        reason: changes.join("; "),
      });
    }
  }
  const actions = [...removes, ...restarts, ...adds, ...comparePool(desired.pool, observed.pool)];
  if (actions.length === 0) return {
    kind: "actions",
    actions: [{ kind: "nothing-to-do", reason: "the running org matches org.yaml" }],
  };
  if (removes.length > 0 || adds.length > 0) {
    const panes = observed.paneCount - removes.filter((action) =>
      action.kind === "remove-agent" && action.agent.pane).length + adds.length;
    const what = [adds.length > 0
      ? `${adds.length} added`
      : "", removes.length > 0 ? `${removes.length} removed` : ""].filter(Boolean)
      .join(", ");
    actions.push({ kind: "retile", panes, reason: `panes ${what}` });
  }
  return { kind: "actions", actions };
}

// Nothing restarts for it: no agent holds a pool GPU, and the verifier swaps to the new pool between runs.
function comparePool(to: number[] | undefined, from: number[] | undefined): Action[] {
  if (JSON.stringify(to) === JSON.stringify(from)) return [];
  const reason = from === undefined
    ? "verify.gpus own → pool"
    : to === undefined ? "verify.gpus pool → own" : "the pool's GPUs changed";
  return [{ kind: "set-pool", from, to, reason }];
}

function findRefusals(desired: DesiredOrg, observed: ObservedOrg): Refusal[] {
  const changed = (key: Refusal["key"], from: string, to: string, why: string): Refusal[] =>
    from === to
      ? []
      : [{ key, message: `${key} changed from "${from}" to "${to}" while the org runs; ${why}`, fix: RESTART_ORG }];
  return [
    ...changed("name", observed.name, desired.name, "it names the tmux socket, the session and every branch"),
    ...changed("repo", observed.repo, desired.repo, "every worktree and branch lives in it"),
    ...changed("base", observed.base, desired.base, "every branch and baseline starts from it"),
  ];
}

function countRoles(roles: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const role of roles) counts.set(role, (counts.get(role) ?? 0) + 1);
  return counts;
}

function explainCount(role: string, counts: { before: Map<string, number>; after: Map<string, number> }): string {
  const before = counts.before.get(role) ?? 0;
  const after = counts.after.get(role) ?? 0;
  if (before === 0) return `role ${role} is new`;
  if (after === 0) return `role ${role} was removed`;
  return `roles.${role}.count ${before} → ${after}`;
}
