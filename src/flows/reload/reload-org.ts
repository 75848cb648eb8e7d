import { formatProblems, type LoadedConfig } from "../../domain/config/index.js";
import { OrgError } from "../../domain/errors.js";
import { orgPaths, type OrgPaths } from "../../domain/paths.js";
import {
  applyActions, buildDesired, describeAction, inferLaunchContext, observeOrg, planLeases, reconcile, summarizeActions,
  type Action, type ObservedOrg,
} from "../../domain/reconcile/index.js";
import type { OrgRecord } from "../../domain/state.js";
import type { World } from "../../domain/world.js";
import { logReload, recordReload } from "./reload-log.js";
import { readOrgRecord } from "../../domain/lifecycle/org-record-file.js";
import { noteProgram } from "./program.js";
import { readAbRun } from "../../adapters/store/ab-run.js";
import type { AbRun } from "../../domain/config-versions/ab-run-record.js";

export interface ReloadInput {
  root: string;
  /** org.yaml as validation left it. */
  read: { loaded: LoadedConfig } | { problems: string[] };
  /** daemon, `org reload`, or the proposing meta agent: who the log names. */
  by: string;
  /** false: only say what would be done (`org plan`); nothing is written. */
  apply: boolean;
  /** A role's prompt template; default: the file next to org.yaml. A meta edit reads its agent's copy. */
  readTemplate?: (prompt: string) => Promise<string | undefined>;
  /** Last word before anything changes: a reason rejects the edit (the meta rate limit). */
  guard?: () => Promise<string | undefined>;
  /** Under the lock, right before the actions: a meta edit copies its files over the org's here. */
  beforeApply?: () => Promise<void>;
  /**
   * A meta edit: its diff goes under every log.md entry, it is logged even when nothing else changes, and a rejection
   * leaves reload.json (org.yaml's state) alone.
   */
  meta?: { diff: string };
}

export type ReloadOutcome =
  | { kind: "rejected"; problems: string[] }
  | { kind: "in-sync"; warnings: string[] }
  | { kind: "planned"; actions: Action[]; warnings: string[] }
  | { kind: "applied"; actions: Action[]; warnings: string[]; record: OrgRecord }
  | { kind: "busy"; reason: string };

/** Validate, observe, reconcile and, with `apply`, change the running org under state/up.lock. */
export async function reloadOrg(world: World, input: ReloadInput): Promise<ReloadOutcome> {
  const paths = orgPaths(input.root);
  if ("problems" in input.read) {
    await assertRunning(world, await readOrgRecord(world.files, paths.root));
    return reject(input, paths, input.read.problems);
  }
  if (input.apply && !(await world.files.tryLock(paths.lock))) return {
    kind: "busy", reason: `another \`org up\` or \`org reload\` holds ${paths.lock}`,
  };
  try {
    return await reloadLocked(world, input, paths, input.read.loaded);
  } finally {
    if (input.apply) await world.files.removeFile(paths.lock);
  }
}

async function reloadLocked(
  world: World, input: ReloadInput, paths: OrgPaths, loaded: LoadedConfig,
): Promise<ReloadOutcome> {
  // Read again under the lock: whoever held it may have just changed the org.
  const record = await readOrgRecord(world.files, paths.root);
  const tmux = world.panes(record.socket, record.session);
  const { config } = loaded;
  // nvidia-smi takes a while on a real GPU box: ask it while tmux and the files are read.
  const [observed, probed] = await Promise.all([
    observeOrg(world, paths, record, tmux), config.gpus === "none" ? { error: "disabled" } : world.gpus.probe(),
  ]);
  if (observed.paneCount === 0) await assertRunning(world, record);
  const leases = planLeases(
    loaded, probed, new Map(record.agents.map((agent) => [agent.name, agent.gpu])), findGrownRole(loaded, observed),
    record.pool,
  );
  if (!leases.ok) return reject(input, paths, leases.problems);
  const context = inferLaunchContext(
    observed.agents.map((agent) => ({ spec: agent.launch, builtin: config.runtimes[agent.record.runtime]?.builtin })),
    {
      state: paths.state, root: paths.root, orgArgv: world.orgArgv, binDir: `${paths.state}/bin`,
      basePath: world.basePath,
    },
  );
  const readTemplate = input.readTemplate ?? ((prompt: string) => world.files.readText(`${loaded.dir}/${prompt}`));
  const templates = new Map(
    await Promise.all(
      Object.entries(config.roles).map(async ([role, spec]) => [
        role, (await readTemplate(spec.prompt)) ?? "",
      ] as const),
    ),
  );
  const desired = buildDesired({
    config, repoDir: loaded.repoDir, paths, leases: leases.leases, cpuMode: leases.cpuMode, pool: leases.pool, context,
    templates,
  });
  const result = reconcile(desired, observed);
  if (result.kind === "refused") return reject(
    input, paths,
    formatProblems(
      loaded.file, loaded.text,
      result.refusals.map((refusal) => ({ path: [refusal.key], message: refusal.message, fix: refusal.fix })),
    ),
  );
  const { actions } = result;
  const inSync = actions.every((action) => action.kind === "nothing-to-do");
  if (!input.apply) return inSync
    ? { kind: "in-sync", warnings: leases.warnings }
    : { kind: "planned", actions, warnings: leases.warnings };
  // Both programs stay as they started: a half changed mid-run would blur the comparison, and no version is noted.
  const ab = await readAbRun(paths.state);
  if (ab) return inSync ? {
    kind: "in-sync", warnings: leases.warnings,
  } : reject(input, paths, [describeAbRefusal(ab)]);
  const refusal = await input.guard?.();
  if (refusal) return reject(input, paths, [refusal]);
  await input.beforeApply?.();
  const at = world.now().toISOString();
  if (inSync && !input.meta) {
    await recordReload(paths.state, { at, by: input.by, outcome: "in-sync", problems: [], actions: [] }, { title: "" });
    // Nothing to restart, yet the program may differ where the running agents do not show it (verify, comments aside).
    return {
      kind: "in-sync",
      warnings: [...leases.warnings, ...(await noteProgram(paths.state, loaded, readTemplate, input.by, world.now()))],
    };
  }
  const lines = actions.map(describeAction);
  const applied = await applyActions({
    world: { ...world, orgArgv: context.orgArgv, basePath: context.basePath },
    loaded: { ...loaded, baseCommit: record.baseCommit },
    paths, record, desired, actions, tmux,
  }).catch(async (error: Error) => {
    // Each finished step is already in org.json, so the next reload plans only what is left.
    await logReload(paths.state, {
      at, op: "reload-failed", title: `${input.by}: ${error.message}`,
      body: [...lines, "", "state/org.json holds the steps done; `org reload` retries the rest"].join("\n"),
    });
    throw error;
  });
  const body = [...lines, ...(input.meta ? ["", input.meta.diff] : [])].join("\n");
  await recordReload(
    paths.state, { at, by: input.by, outcome: "applied", problems: [], actions: lines },
    { title: `${summarizeActions(actions)} (${input.by})`, body },
  );
  return {
    kind: "applied", actions,
    warnings: [...leases.warnings, ...(await noteProgram(paths.state, loaded, readTemplate, input.by, world.now()))],
    record: applied,
  };
}

async function reject(input: ReloadInput, paths: OrgPaths, problems: string[]): Promise<ReloadOutcome> {
  const at = new Date().toISOString();
  const title = `${input.by}: the edit is rejected; nothing changed`;
  if (input.apply && input.meta) await logReload(paths.state, {
    at, op: "reload-rejected", title, body: [...problems, "", input.meta.diff].join("\n"),
  });
  else if (input.apply) await recordReload(
    paths.state, { at, by: input.by, outcome: "rejected", problems, actions: [] }, { title, body: problems.join("\n") },
  );
  return { kind: "rejected", problems };
}

async function assertRunning(world: World, record: OrgRecord): Promise<void> {
  if (!(await world.panes(record.socket, record.session).isRunning())) {
    throw new OrgError(
      `org ${record.name} is not running — start it with \`org up\`, which reads org.yaml as it is now`, "down",
    );
  }
}

// Too few GPUs is blamed on the GPU role whose count grew, when one did.
function findGrownRole(loaded: LoadedConfig, observed: ObservedOrg): string | undefined {
  const before = (role: string) => observed.agents.filter((agent) => agent.record.role === role).length;
  return Object.entries(loaded.config.roles).find(([role, spec]) => spec.gpu && spec.count > before(role))?.[0];
}

function describeAbRefusal(ab: AbRun): string {
  return `an A/B run is on (A ${ab.a.version} from ${ab.a.file}, B ${ab.b.version} from ${ab.b.file}): edits of either `
    + `program are not applied while both are measured — \`org down\`, edit, then \`org up --ab ${ab.b.file}\` again`;
}
