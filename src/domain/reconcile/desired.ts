import type { OrgConfig } from "../config/index.js";
import type { OrgPaths } from "../paths.js";
import { buildLaunchSpec, planAgents, type LaunchContext } from "../lifecycle/plan-agents.js";
import { renderAgentPrompt } from "../lifecycle/prepare-agents.js";
import { slurmLaunchSpec } from "../slurm/prepare-jobs.js";
import type { DesiredOrg } from "./org-states.js";

export interface DesiredInput {
  config: OrgConfig;
  /** Absolute research repo folder, as loading resolved it. */
  repoDir: string;
  paths: OrgPaths;
  leases: Map<string, number | null>;
  cpuMode: boolean;
  pool?: number[];
  context: LaunchContext;
  /** Each role's prompt template, by role name. */
  templates: Map<string, string>;
}

/** Every agent of the config with the exact launch.json and prompt.md `org up` would write for it. */
export function buildDesired(input: DesiredInput): DesiredOrg {
  const { config, paths } = input;
  const agents = planAgents(config, paths.worktrees, input.leases).map((agent) => {
    const raw = buildLaunchSpec(config, agent, input.context);
    return {
      ...agent,
      raw,
      launch: slurmLaunchSpec(config, paths.state, input.context.orgArgv, raw),
      prompt: renderAgentPrompt(config, agent, paths.state, input.templates.get(agent.role) ?? ""),
    };
  });

  return {
    name: config.name,
    repo: input.repoDir,
    base: config.base,
    cpuMode: input.cpuMode,
    ...(input.pool ? { pool: input.pool } : {}),
    agents,
  };
}
