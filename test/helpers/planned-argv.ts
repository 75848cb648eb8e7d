import type { OrgConfig } from "../../src/domain/config/index.js";
import { buildLaunchSpec, planAgents } from "../../src/domain/lifecycle/plan-agents.js";

const CONTEXT = {
  state: "/o/state",
  root: "/o",
  orgArgv: ["/node", "/pkg/bin/org.js"],
  binDir: "/o/state/bin",
  basePath: "/usr/bin",
};

/** The argv `org up` would start each agent with, by agent name. */
export function planArgvs(config: OrgConfig): Record<string, string[]> {
  return Object.fromEntries(
    planAgents(config, "/o/worktrees", new Map()).map((agent) => [
      agent.name,
      buildLaunchSpec(config, agent, CONTEXT).argv,
    ]),
  );
}
