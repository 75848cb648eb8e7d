import type { DesiredOrg, ObservedOrg } from "../../src/domain/reconcile/index.js";

/** The running org exactly as `desired` plans it: every agent in its pane (%1, %2, …), its program alive. */
export function observeAsDesired(desired: DesiredOrg): ObservedOrg {
  const { name, repo, base, pool } = desired;
  return {
    name, repo, base, paneCount: desired.agents.length + 1, ...(pool ? { pool } : {}),
    agents: desired.agents.map((agent, index) => ({
      record: {
        name: agent.name, role: agent.role, runtime: agent.runtime, branch: agent.branch, worktree: agent.worktree,
        gpu: agent.gpu, paneId: `%${index + 1}`,
      },
      launch: agent.launch,
      prompt: agent.prompt,
      pane: { id: `%${index + 1}`, pid: 100 + index, dead: false, deadStatus: null, options: {} },
      programPid: 100 + index,
    })),
  };
}
