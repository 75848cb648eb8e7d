import { describeAction, type Action } from "../domain/reconcile/index.js";
import { parseProblem, type ProblemJson } from "../domain/scripting/index.js";
import type { ReloadOutcome } from "../flows/reload/reload-org.js";

/** One action of `org plan --json`: who or what it touches, why, and the line `org plan` prints for it. */
export type ActionJson = {
  kind: Action["kind"];
  reason: string;
  text: string;
  agent?: string;
  changes?: string[];
  panes?: number;
  from?: number[] | null;
  to?: number[] | null;
};

/** `org plan --json`: what reloading would do, or why it would be refused; busy is an error, not a plan. */
export interface PlanJson {
  kind: "planned" | "applied" | "in-sync" | "rejected";
  actions: ActionJson[];
  warnings: string[];
  problems: ProblemJson[];
}

export function describePlanJson(outcome: Exclude<ReloadOutcome, { kind: "busy" }>): PlanJson {
  switch (outcome.kind) {
    case "rejected":
      return { kind: "rejected", actions: [], warnings: [], problems: outcome.problems.map(parseProblem) };
    case "in-sync":
      return { kind: "in-sync", actions: [], warnings: outcome.warnings, problems: [] };
    case "planned":
    case "applied":
      return {
        kind: outcome.kind, actions: outcome.actions.map(toActionJson), warnings: outcome.warnings, problems: [],
      };
  }
}

function toActionJson(action: Action): ActionJson {
  const base = { kind: action.kind, reason: action.reason, text: describeAction(action) };
  switch (action.kind) {
    case "add-agent":
      return { ...base, agent: action.agent.name };
    case "remove-agent":
      return { ...base, agent: action.agent.record.name };
    case "restart-agent":
    case "update-held-agent":
      return { ...base, agent: action.agent.name, changes: action.changes };
    case "retile":
      return { ...base, panes: action.panes };
    case "set-pool":
      return { ...base, from: action.from ?? null, to: action.to ?? null };
    case "nothing-to-do":
      return base;
  }
}
