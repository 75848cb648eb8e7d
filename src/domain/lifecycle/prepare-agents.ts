import { relative } from "node:path";
import { OrgError } from "../errors.js";
import { DEFAULT_QUEUE_PER_AGENT, type LoadedConfig, type OrgConfig } from "../config/index.js";
import { buildLaunchSpec, type PlannedAgent } from "./plan-agents.js";
import { writeLaunchSpec } from "./launch-file.js";
import { agentPaths, type OrgPaths } from "../paths.js";
import type { LaunchSpec } from "../state.js";
import type { World } from "../world.js";
import { renderPrompt } from "../../roles/index.js";
import { prepareSlurmAgents } from "../slurm/prepare-jobs.js";
import { prepareRuntimeFiles } from "../runtimes/prepare-runtime-files.js";
import { decideOrgSandbox, startSandboxGit, writeSandboxes } from "../sandbox/prepare-sandboxes.js";
import { renderOrgShim } from "../sandbox/shim.js";
import { isMetaRole } from "../reconcile/meta-check.js";
import type { SandboxDecision } from "../sandbox/decide-sandbox.js";
import type { AgentSandbox } from "../sandbox/layout.js";

/** What prepareAgents made ready: new worktrees, every launch, branch heads, and how the agents are sandboxed. */
export interface PreparedAgents {
  created: string[];
  launches: Map<string, LaunchSpec>;
  heads: Map<string, string>;
  sandbox: SandboxDecision;
  /** By agent; empty when the sandbox is not on. */
  sandboxes: Map<string, AgentSandbox>;
  /** Links and special files removed from the agents' folders, which an older org let agents write. */
  reclaimed: string[];
}

/**
 * Worktree, shared paths, prompt, inbox, launch spec and sandbox of every agent; existing
 * worktrees are reused. `socket` is the grid's.
 */
export async function prepareAgents(
  world: World, loaded: LoadedConfig, paths: OrgPaths, agents: PlannedAgent[], socket: string,
): Promise<PreparedAgents> {
  const { config, repoDir } = loaded;
  // Decided before anything is made: sandbox.enabled: true where bwrap cannot work refuses here.
  const sandbox = await decideOrgSandbox(world, config);
  // A worktree folder deleted by hand leaves git's record behind (prunable); prune it so the worktree is re-added.
  const [worktrees, branches] = await Promise.all([
    world.git.worktreeList(repoDir),
    world.git.branchHeads(repoDir, `org/${config.name}/`),
  ]);
  let listed = worktrees;
  if (listed.some((entry) => entry.prunable)) {
    await world.git.pruneWorktrees(repoDir);
    listed = await world.git.worktreeList(repoDir);
  }
  const registered = new Set(listed.map((entry) => entry.path));
  await world.files.mkdir(paths.worktrees);
  const missing: PlannedAgent[] = [];
  for (const agent of agents) {
    if (registered.has(agent.worktree)) continue;
    if (await world.files.exists(agent.worktree)) {
      throw new OrgError(
        `${agent.worktree} exists but is not a worktree of ${repoDir} — move it away, then run \`org up\` again`,
        "worktree",
      );
    }
    missing.push(agent);
  }
  // After the branch listing and the checks that refuse: its git calls run beside the
  // worktrees', which it does not need.
  const sandboxGit = startSandboxGit(world, loaded, sandbox);
  const binDir = `${paths.state}/bin`;
  // An agent's files in state need no worktree: they are written while git makes the worktrees.
  const [written] = await Promise.all([
    writeAgentFiles(world, loaded, paths, agents, binDir),
    world.git.addWorktrees(
      repoDir,
      missing.map((agent) =>
        ({
          path: agent.worktree,
          branch: agent.branch,
          base: loaded.baseCommit,
          branchExists: branches.has(agent.branch),
        })),
    ),
    // The verifier's objects and the base's protected hashes are taken now, while no agent can have written the repo's.
    config.verify && world.git.prepareVerifier({
      repo: repoDir, state: paths.state, base: loaded.baseCommit, protected: config.verify.protected,
    }),
  ]);
  const created = missing.map((agent) => agent.name);
  const runtimeExcludes = (await Promise.all(written.map(async ({ agent, spec, prompt }) => {
    for (const entry of config.share) {
      const share = typeof entry === "string" ? { path: entry, mode: "link" as const } : entry;
      await world.files.share(
        `${repoDir}/${share.path}`,
        `${agent.worktree}/${share.path}`,
        share.mode,
        agent.worktree,
      );
    }
    return prepareRuntimeFiles(world, spec, prompt, process.env.HOME ?? "");
  }))).flat();
  const launches = new Map<string, LaunchSpec>(written.map(({ agent, spec }) => [agent.name, spec]));
  // Agents call `org submit` and friends: a shim on their PATH runs this very binary, or asks
  // the daemon from a sandbox.
  await world.files.writeAtomic(`${binDir}/org`, renderOrgShim(world.orgArgv));
  await world.files.makeExecutable(`${binDir}/org`);
  // Worktrees and state under the research repo must never show up as its untracked files.
  const inside = [paths.worktrees, paths.state].map((path) => relative(repoDir, path))
    .filter((path) => !path.startsWith(".."));
  const shares = config.share.map((entry) => (typeof entry === "string" ? entry : entry.path));
  await world.git.excludePaths(
    repoDir,
    [...inside.map((path) => `/${path}/`), ...shares.map((path) => `/${path}`), ...new Set(runtimeExcludes)],
  );
  // Under backend: slurm a job agent's pane runs `org slurm-run`: its job's pending reason,
  // then the agent as a job step.
  // Every agent branch's head, as it now stands: a branch just created sits on the base commit.
  const heads = new Map(branches);
  for (const agent of agents) if (created.includes(agent.name)) heads.set(agent.branch, loaded.baseCommit);
  const sandboxes = await writeSandboxes(world, loaded, paths, sandbox, agents, socket, sandboxGit);
  const reclaimed = written.flatMap((entry) => entry.reclaimed);
  return {
    created,
    heads,
    sandbox,
    sandboxes,
    reclaimed,
    launches: await prepareSlurmAgents(world.files, config, paths.state, world.orgArgv, agents, launches),
  };
}

/** Every agent's prompt, folders, empty pane log and launch spec, side by side; each role's template read once. */
async function writeAgentFiles(
  world: World, loaded: LoadedConfig, paths: OrgPaths, agents: PlannedAgent[], binDir: string,
): Promise<{ agent: PlannedAgent; spec: LaunchSpec; prompt: string; reclaimed: string[] }[]> {
  const { config } = loaded;
  const templates = new Map<string, Promise<string>>();
  const template = (file: string) =>
    templates.get(file)
      ?? templates.set(file, world.files.readText(`${loaded.dir}/${file}`).then((text) => text ?? "")).get(file)!;
  return Promise.all(agents.map(async (agent) => {
    const files = agentPaths(paths.state, agent.name);
    // Before any write there: an older org let the agent plant links where the daemon and tmux write.
    const reclaimed = await world.files.reclaimAgentDir(files);
    // The folders its sandbox binds (bwrap binds only what exists) are made here, while git makes the worktrees.
    await Promise.all([files.inbox, ...files.writable].map((dir) => world.files.mkdir(dir)));
    const prompt = renderAgentPrompt(config, agent, paths.state, await template(config.roles[agent.role]!.prompt));
    const spec = buildLaunchSpec(
      config,
      agent,
      { state: paths.state, root: paths.root, orgArgv: world.orgArgv, binDir, basePath: world.basePath },
    );
    // status.json is written once, by recordStarts, when the grid says whether the agent's program runs.
    await Promise.all([
      // The daemon starts logging the pane moments later; `org logs` meanwhile finds an empty log, not none.
      world.files.exists(files.paneLog)
        .then((exists) => (exists ? undefined : world.files.writeAtomic(files.paneLog, ""))),
      world.files.writeAtomic(files.prompt, prompt),
      writeLaunchSpec(world.files, paths.state, agent.name, spec),
    ]);
    return { agent, spec, prompt, reclaimed };
  }));
}

/** An agent's prompt.md: its role's template filled in with who and where it is. */
export function renderAgentPrompt(config: OrgConfig, agent: PlannedAgent, state: string, template: string): string {
  const verify = config.verify;
  return renderPrompt(template, {
    org: config.name,
    agent: agent.name,
    role: agent.role,
    branch: agent.branch,
    worktree: agent.worktree,
    gpu: agent.gpu !== null
      ? String(agent.gpu)
      : verify?.gpus === "pool"
        ? "none of your own (the verifier runs each experiment on a free GPU of the org's pool)"
        : "none (CPU)",
    inbox: agentPaths(state, agent.name).inbox,
    progress: agentPaths(state, agent.name).progress,
    task: agentPaths(state, agent.name).task,
    edits: config.roles[agent.role]!.edits.join(", ") || "any unprotected path",
    protected: verify?.protected.join(", ") || "nothing",
    metric: verify?.metric.name ?? "the metric",
    goal: verify?.metric.goal ?? "minimize",
    queue_per_agent: String(verify?.queue_per_agent ?? DEFAULT_QUEUE_PER_AGENT),
    org_bin: `${state}/bin/org`,
  }, { meta: isMetaRole(config, agent.role) });
}

