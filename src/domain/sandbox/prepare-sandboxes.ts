import { dirname, join, resolve } from "node:path";
import { OrgError } from "../errors.js";
import type { LoadedConfig } from "../config/index.js";
import { agentPaths, isInsideDir, PTY_SOCKET_PREFIX, sandboxFile, type OrgPaths } from "../paths.js";
import type { World } from "../world.js";
import type { SandboxGit } from "../ports.js";
import { decideSandbox, type SandboxDecision } from "./decide-sandbox.js";
import { planSandbox, type AgentSandbox } from "./layout.js";
import { runsAsJob } from "../slurm/prepare-jobs.js";

/** The org's sandbox decision for `org up` and `org reload`: sandbox.enabled against what bwrap can do here. */
export async function decideOrgSandbox(
  world: Pick<World, "sandbox">,
  config: LoadedConfig["config"],
): Promise<SandboxDecision> {
  // Off by choice: no trial sandbox to spawn while a person waits on `org up`.
  if (config.sandbox?.enabled === false)
    return decideSandbox(config.sandbox, { kind: "unavailable", reason: "", fix: "" });
  const decision = decideSandbox(config.sandbox, await world.sandbox.probe());
  if (decision.kind === "refused") throw new OrgError(decision.reason, "sandbox");
  return decision;
}

/**
 * The repo readied for the sandbox (best as a symbolic ref), started as soon as the sandbox is decided: it needs no
 * worktree, so its git calls run while the worktrees are made. Rejections wait for writeSandboxes, which awaits it.
 */
export function startSandboxGit(
  world: Pick<World, "git">,
  loaded: LoadedConfig,
  decision: SandboxDecision,
): Promise<SandboxGit> | undefined {
  if (decision.kind !== "on") return undefined;
  const started = world.git.prepareSandbox(loaded.repoDir, loaded.config.name);
  started.catch(() => undefined);
  return started;
}

/**
 * Each agent's sandbox, written to state/sandbox/<agent>.json, where the daemon's supervisor reads it for every
 * restart. Without a sandbox those files go, so none is stale.
 */
export async function writeSandboxes(
  world: World, loaded: LoadedConfig, paths: OrgPaths, decision: SandboxDecision,
  agents: readonly { name: string; role: string; worktree: string }[], socket: string,
  started: Promise<SandboxGit> | undefined,
): Promise<Map<string, AgentSandbox>> {
  const sandboxes = new Map<string, AgentSandbox>();
  if (decision.kind !== "on" || !started) {
    // Unsandboxed, the agent still finds its own folders ($ORG_PROGRESS lies in own/): prepareAgents made them.
    await Promise.all(agents.map((agent) => world.files.removeFile(sandboxFile(paths.state, agent.name))));
    return sandboxes;
  }
  const { config } = loaded;
  const git = await started;
  const pty = socket.startsWith(PTY_SOCKET_PREFIX);
  const user = await findUserFiles(world, world.sandbox.home);
  await Promise.all(agents.map(async (agent) => {
    const files = agentPaths(paths.state, agent.name);
    const outbox = files.outbox;
    // bwrap binds only folders that exist: prepareAgents made each writable one (a folder, never a link) already.
    const worktreeDir = await git.findWorktreeDir(agent.worktree, agent.name);
    const sandbox = planSandbox({
      bwrap: decision.bwrap,
      root: paths.root,
      repo: loaded.repoDir,
      worktrees: paths.worktrees,
      worktree: agent.worktree,
      agentWritable: files.writable,
      outbox,
      home: files.home,
      git: { common: git.common, worktreeDir, org: config.name },
      ...user,
      installs: findInstallsInTmp(world.orgArgv),
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

/** A state/sandbox/<agent>.json as read: none (the org runs the agent unsandboxed), its sandbox, or why not. */
export type SandboxRecord =
  | { kind: "none" }
  | { kind: "sandboxed"; sandbox: AgentSandbox }
  | { kind: "damaged"; reason: string };

/** The record written above; a damaged one is never read as "none": that would start the agent unsandboxed. */
export function parseAgentSandbox(text: string | undefined): SandboxRecord {
  if (text === undefined) return { kind: "none" };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { kind: "damaged", reason: "not JSON" };
  }
  const { bwrap, args } = (raw ?? {}) as { bwrap?: unknown; args?: unknown };
  if (typeof bwrap !== "string") return { kind: "damaged", reason: "bwrap: not a path" };
  if (!Array.isArray(args) || !args.every((arg) => typeof arg === "string")) {
    return { kind: "damaged", reason: "args: not a list of strings" };
  }
  const step = (raw as { step?: unknown }).step === true ? { step: true as const } : {};
  return { kind: "sandboxed", sandbox: { bwrap, args: args as string[], ...step } };
}

/** What a reader says of a damaged record: the agent is not started, and how to write the record again. */
export function describeDamagedSandbox(file: string, reason: string): string {
  const fix = "run `org down`, then `org up`";
  return `${file} is damaged (${reason}): the agent is not started without its sandbox — ${fix}`;
}

/** node's and org's own installs when the private /tmp would hide them (a clone tried out there): read-only again. */
export function findInstallsInTmp(orgArgv: readonly string[]): string[] {
  // <prefix>/bin/node and <package>/bin/org.js: the folder above bin/ holds what they load.
  const installs = orgArgv.slice(0, 2).map((program) => dirname(dirname(program)));
  return [...new Set(installs)].filter((dir) => dir !== "/tmp" && isInsideDir(dir, "/tmp"));
}

/**
 * What the sandbox shows of the user's own files: their home again over the private /tmp when it lies there (a test's,
 * a container's), and their git config as the agent's global one (the agent's HOME is its own folder).
 */
export async function findUserFiles(
  world: Pick<World, "files">,
  home: string,
): Promise<{ tmpHome?: string; gitConfig?: string }> {
  if (!home || home === "/" || !(await world.files.exists(home))) return {};
  const candidates = [join(home, ".gitconfig"), join(home, ".config", "git", "config")];
  const found = await Promise.all(candidates.map((path) => world.files.exists(path)));
  const gitConfig = candidates.find((_, i) => found[i]);
  const inTmp = isInsideDir(home, "/tmp") && home !== "/tmp";
  return { ...(inTmp ? { tmpHome: home } : {}), ...(gitConfig ? { gitConfig } : {}) };
}
