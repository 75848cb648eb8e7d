import { join, resolve } from "node:path";
import { OrgError } from "../errors.js";
import type { LoadedConfig } from "../config/index.js";
import { agentPaths, isInsideDir, PTY_SOCKET_PREFIX, sandboxFile, type OrgPaths } from "../paths.js";
import type { World } from "../world.js";
import type { SandboxGit } from "../ports.js";
import { decideSandbox, type SandboxDecision } from "./decide.js";
import { planSandbox, type AgentSandbox } from "./layout.js";
import { runsAsJob } from "../slurm/prepare.js";

/** The org's sandbox decision for `org up` and `org reload`: sandbox.enabled against what bwrap can do here. */
export async function decideOrgSandbox(world: Pick<World, "sandbox">, config: LoadedConfig["config"]): Promise<SandboxDecision> {
  // Off by choice: no trial sandbox to spawn while a person waits on `org up`.
  if (config.sandbox?.enabled === false) return decideSandbox(config.sandbox, { kind: "unavailable", reason: "", fix: "" });
  const decision = decideSandbox(config.sandbox, await world.sandbox.probe());
  if (decision.kind === "refused") throw new OrgError(decision.reason, "sandbox");
  return decision;
}

/**
 * The repo readied for the sandbox (best as a symbolic ref), started as soon as the sandbox is decided: it needs no
 * worktree, so its git calls run while the worktrees are made. Rejections wait for writeSandboxes, which awaits it.
 */
export function startSandboxGit(world: Pick<World, "git">, loaded: LoadedConfig, decision: SandboxDecision): Promise<SandboxGit> | undefined {
  if (decision.kind !== "on") return undefined;
  const started = world.git.prepareSandbox(loaded.repoDir, loaded.config.name);
  started.catch(() => undefined);
  return started;
}

/**
 * Each agent's sandbox, written to state/sandbox/<agent>.json, where the daemon's supervisor reads it for every
 * restart (launch.json lies in the agent's own, writable folder). Without a sandbox those files go, so none is stale.
 */
export async function writeSandboxes(
  world: World, loaded: LoadedConfig, paths: OrgPaths, decision: SandboxDecision, agents: readonly { name: string; role: string; worktree: string }[], socket: string,
  started: Promise<SandboxGit> | undefined,
): Promise<Map<string, AgentSandbox>> {
  const sandboxes = new Map<string, AgentSandbox>();
  if (decision.kind !== "on" || !started) {
    await Promise.all(agents.map((agent) => world.files.removeFile(sandboxFile(paths.state, agent.name))));
    return sandboxes;
  }
  const { config } = loaded;
  const git = await started;
  const pty = socket.startsWith(PTY_SOCKET_PREFIX);
  const home = findHomeInsideOrg(world.sandbox.home, [paths.root, loaded.repoDir], [paths.state, paths.worktrees, git.common]);
  await Promise.all(agents.map(async (agent) => {
    const agentDir = agentPaths(paths.state, agent.name).dir;
    const outbox = join(agentDir, "outbox");
    const found = git.findWorktreeDir(agent.worktree, agent.name);
    const [worktreeDir] = await Promise.all([found, world.files.mkdir(outbox)]);
    const sandbox = planSandbox({
      bwrap: decision.bwrap, root: paths.root, repo: loaded.repoDir, worktrees: paths.worktrees, worktree: agent.worktree, agentDir, outbox,
      git: { common: git.common, worktreeDir, org: config.name },
      ...(home ? { home } : {}),
      read: (config.sandbox?.read ?? []).map((path) => resolve(loaded.dir, path)),
      write: (config.sandbox?.write ?? []).map((path) => resolve(loaded.dir, path)),
      // Through the grid's socket an agent could type into another agent's pane, or end the org.
      hideDirs: pty ? [] : [world.sandbox.tmuxDir],
      maskFiles: pty ? [socket.slice(PTY_SOCKET_PREFIX.length)] : [],
      step: runsAsJob(config, agent.role),
    });
    await world.files.writeAtomic(sandboxFile(paths.state, agent.name), `${JSON.stringify(sandbox, null, 2)}\n`);
    sandboxes.set(agent.name, sandbox);
  }));
  return sandboxes;
}

/** A state/sandbox/<agent>.json as written above; undefined when absent or not of that shape (the agent then runs unsandboxed). */
export function parseAgentSandbox(text: string | undefined): AgentSandbox | undefined {
  if (text === undefined) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const { bwrap, args } = (raw ?? {}) as { bwrap?: unknown; args?: unknown };
  if (typeof bwrap !== "string" || !Array.isArray(args) || !args.every((arg) => typeof arg === "string")) return undefined;
  return { bwrap, args: args as string[], ...((raw as { step?: unknown }).step === true ? { step: true as const } : {}) };
}

/**
 * The user's home when the org's read-only folders would cover it (a HOME inside the org folder or repo): the CLIs
 * write their caches and data there (opencode: ~/.cache, ~/.local), so it stays writable, unless it holds the org's own places.
 */
export function findHomeInsideOrg(home: string, tops: readonly string[], orgPlaces: readonly string[]): string | undefined {
  if (!home || home === "/" || !tops.some((top) => isInsideDir(home, top) && home !== top)) return undefined;
  return orgPlaces.some((place) => isInsideDir(place, home)) ? undefined : home;
}
