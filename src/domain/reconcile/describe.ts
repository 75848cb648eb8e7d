import type { Action } from "./org-states.js";

/** One line per action, as `org plan`, `org reload`, the control pane and log.md show it. */
export function describeAction(action: Action): string {
  switch (action.kind) {
    case "add-agent": {
      const lease = action.agent.gpu === null ? "" : `, GPU ${action.agent.gpu}`;
      return `+ add ${action.agent.name} (${action.reason}): worktree${lease}, pane`;
    }
    case "remove-agent": {
      const { record } = action.agent;
      const lease = record.gpu === null ? "" : `, free GPU ${record.gpu}`;
      return `- remove ${record.name} (${action.reason}): stop it${lease}; branch ${record.branch} and `
        + `its worktree are kept`;
    }
    case "restart-agent":
      return `~ restart ${action.agent.name} (${action.reason})`;
    case "update-held-agent":
      return `~ update ${action.agent.name} (${action.reason}): the org is stopped, `
        + `so it stays stopped and starts with this when the org resumes`;
    case "retile":
      return `# retile the grid: ${action.panes} panes (${action.reason})`;
    case "set-pool":
      return `~ verify runs: ${describePool(action.from)} → ${describePool(action.to)} (${action.reason}); `
        + `the verifier takes it up after the runs in flight, nothing restarts for it`;
    case "nothing-to-do":
      return `= nothing to do: ${action.reason}`;
  }
}

function describePool(pool: number[] | undefined): string {
  if (pool === undefined) return "each agent's own GPU";
  return pool.length === 0 ? "a pool of CPU slots" : `a pool of GPU ${pool.join(", ")}`;
}

/** `2 actions: +researcher-3 ~researcher-1`: a log.md title. */
export function summarizeActions(actions: Action[]): string {
  const agents = actions.flatMap((action) => {
    if (action.kind === "add-agent") return [`+${action.agent.name}`];
    if (action.kind === "remove-agent") return [`-${action.agent.record.name}`];
    if (action.kind === "restart-agent" || action.kind === "update-held-agent") return [`~${action.agent.name}`];
    if (action.kind === "set-pool") return ["~pool"];
    return [];
  });
  const count = actions.filter((action) => action.kind !== "nothing-to-do").length;
  return count === 0 ? "nothing to do" : `${count} action${count === 1 ? "" : "s"}: ${agents.join(" ") || "retile"}`;
}
