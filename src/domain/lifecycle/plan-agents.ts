import { join } from "node:path";
import { parseDuration, type OrgConfig } from "../config/index.js";
import type { AgentRecord, LaunchSpec } from "../state.js";
import { agentPaths, branchName } from "../paths.js";
import { describeRuntimeLaunch } from "../runtimes/launch.js";
import { resolveRuntime, sessionIdFor } from "../runtimes/resolve-runtime.js";

/** One agent as the plan wants it: its record in org.json before it has a pane, and whether it wants a GPU. */
export type PlannedAgent = Omit<AgentRecord, "paneId"> & { needsGpu: boolean };

/** roles × count → agent names, in org.yaml order: researcher-1, researcher-2, … */
export function listAgents(config: OrgConfig): { name: string; role: string; gpu: boolean }[] {
  return Object.entries(config.roles).flatMap(([role, spec]) =>
    Array.from({ length: spec.count }, (_, index) => ({ name: `${role}-${index + 1}`, role, gpu: spec.gpu })),
  );
}

export function planAgents(
  config: OrgConfig, worktreesDir: string, leases: Map<string, number | null>,
): PlannedAgent[] {
  return listAgents(config).map(({ name, role, gpu }) => ({
    name,
    role,
    runtime: config.roles[role]!.runtime,
    branch: branchName(config.name, name),
    worktree: join(worktreesDir, name),
    gpu: leases.get(name) ?? null,
    needsGpu: gpu,
  }));
}

export interface LaunchContext {
  state: string;
  root: string;
  /** argv that runs this org binary: [node, /path/bin/org.js]. */
  orgArgv: string[];
  /** Folder holding the `org` shim that agents call. */
  binDir: string;
  basePath: string;
}

/** Substitute placeholders that stand as whole argv elements; anything else passes through untouched. */
export function substituteArgv(argv: string[], values: Record<string, string>): string[] {
  return argv.map((element) => {
    const match = /^\{([a-z_]+)\}$/.exec(element);
    return match && match[1]! in values ? values[match[1]!]! : element;
  });
}

/** What the supervisor of one agent runs, with which environment. */
export function buildLaunchSpec(config: OrgConfig, agent: PlannedAgent, context: LaunchContext): LaunchSpec {
  const runtime = config.runtimes[agent.runtime]!;
  const role = config.roles[agent.role]!;
  const files = agentPaths(context.state, agent.name);
  const gpu = agent.gpu === null ? "" : String(agent.gpu);
  const sessionId = sessionIdFor(context.root, agent.name);
  const values = {
    session_id: sessionId,
    prompt_file: files.prompt,
    kickoff: role.kickoff,
    agent: agent.name,
    role: agent.role,
    worktree: agent.worktree,
    gpu,
    state: context.state,
    inbox: files.inbox,
  };
  const resolved = runtime.builtin ? null : resolveRuntime(runtime);
  const launch = resolved
    && describeRuntimeLaunch(
      resolved,
      { name: agent.runtime, home: files.home, worktree: agent.worktree, sessionId },
      (argv) => substituteArgv(argv, values),
    );
  const argv = resolved ? substituteArgv(resolved.command, values) : [...context.orgArgv, "builtin", runtime.builtin!];
  return {
    agent: agent.name,
    role: agent.role,
    argv,
    cwd: agent.worktree,
    ...(launch ? { runtime: launch.runtime } : {}),
    env: {
      ...launch?.env,
      ...runtime.env,
      ORG_NAME: config.name,
      ORG_AGENT: agent.name,
      ORG_ROLE: agent.role,
      ORG_ROOT: context.root,
      ORG_STATE: context.state,
      ORG_WORKTREE: agent.worktree,
      ORG_INBOX: files.inbox,
      ORG_PROMPT_FILE: files.prompt,
      ORG_PROGRESS: files.progress,
      ORG_TASK: files.task,
      ORG_EDITS: role.edits.join(":"),
      CUDA_VISIBLE_DEVICES: gpu,
      PATH: `${context.binDir}:${context.basePath}`,
    },
    restart: runtime.restart,
    backoffMs: parseDuration(config.supervisor.backoff),
    maxBackoffMs: parseDuration(config.supervisor.max_backoff),
    maxRestarts: config.supervisor.max_restarts,
    healthyAfterMs: parseDuration(config.supervisor.healthy_after),
    ...(runtime.pass_env?.length ? { passEnv: runtime.pass_env } : {}),
  };
}
