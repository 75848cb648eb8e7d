import { orgPaths } from "../../domain/paths.js";
import { readStatuses } from "../../domain/views/status-snapshot.js";
import { declaredSecrets, upOrg, type UpPhase, type UpResult } from "../../domain/lifecycle/up-org.js";
import type { World } from "../../domain/world.js";
import { findRunningKeeper, keeperEnv, startKeeper, allowKeeper } from "../../adapters/keeper-process.js";
import { createWorld } from "../../adapters/real-world.js";
import type { ReloadOutcome } from "../reload/reload-org.js";
import { checkUp, chooseMode } from "./up-checks.js";
import { prefetchGit } from "./prefetch-git.js";
import { prepareUp } from "./up-programs.js";

// `org up`'s command calls this one flow: the timings, the attach and the verifier's line come with it.
export { attachGrid, timeUpPhases } from "./up-session.js";
export { readUpVerifierView } from "./up-verifier.js";

const READY_TIMEOUT_MS = 15_000;

export interface UpInput {
  root: string;
  tmux: boolean;
  resume: boolean;
  /** An A/B run: the second program's org.yaml. */
  ab?: string;
}

/** What `org up` is told as it goes; `say` and `warn` are lines for stdout and stderr, in the order they happen. */
export interface UpHooks {
  enter(phase: UpPhase): Promise<void>;
  /** org.json is written: from here on an interrupt leaves the org up. */
  recorded(): void;
  interrupted(): boolean;
  say(line: string): void;
  warn(line: string): void;
}

/** A running org as `org up` left it: started now, or found running (`reloadMissing` brings back closed panes). */
export type Upped =
  | { kind: "refused"; problems: string[] }
  | (UppedOrg & { kind: "started"; result: Extract<UpResult, { kind: "started" }>; waitForAgents(): Promise<boolean> })
  | (UppedOrg & {
    kind: "already-running"; result: Extract<UpResult, { kind: "already-running" }>;
    reloadMissing(): Promise<ReloadOutcome | undefined>;
  });

/** What both ends of a successful `org up` hold: the world it ran in, and whether org.yaml has a verifier. */
interface UppedOrg {
  world: World;
  verifies: boolean;
}

/**
 * `org up`: the programs checked, the stop condition and the judge's calibration honoured, then the grid, its record
 * and the keeper. Refused, nothing has started; an interrupt before the record rolls back what had (upOrg).
 */
export async function startOrg(input: UpInput, hooks: UpHooks): Promise<Upped> {
  await hooks.enter("check");
  // A stop deadline already past is refused, unless `--resume` goes on past it.
  const read = await prepareUp(input.root, input.ab, input.resume ? undefined : new Date());
  if ("problems" in read) return { kind: "refused", problems: read.problems };
  // git lists the worktrees and agent branches while the checks run: the worktree phase starts with them.
  const world = prefetchGit(createWorld(), read.loaded.repoDir, `org/${read.loaded.config.name}/`);
  const refused = await checkUp(world, input.root, read.loaded, input.resume, hooks);
  if (refused.length > 0) return { kind: "refused", problems: refused };
  // A program not recorded costs `org history` a line, never the start itself.
  const onStart = () => read.record(new Date()).then((line) => void (line && hooks.say(line)),
    (error: Error) => hooks.warn(`warning: the program version was not recorded in state/programs: ${error.message}`));
  // `org down` left keepers a mark to stay away: from here on one keeps the daemon running.
  await allowKeeper(orgPaths(input.root).state);
  const mode = await chooseMode(input.tmux, hooks.warn);
  const { interrupted } = hooks;
  // The program's copy is saved while tmux builds the grid: its start's lines then wait on fewer writes.
  const onPhase = (phase: UpPhase) => {
    if (phase === "grid") read.save?.(new Date());
    return hooks.enter(phase);
  };
  const result = await upOrg(world, read.loaded, { mode, onStart, onPhase, interrupted });
  hooks.recorded();
  await hooks.enter("keeper");
  await ensureKeeper(input.root, world.orgArgv, declaredSecrets(read.loaded.config));
  const verifies = Boolean(read.loaded.config.verify);
  if (result.kind === "started") {
    const names = result.record.agents.map((agent) => agent.name);
    const waitForAgents = () => waitUntilStarted(world, input.root, names, interrupted);
    return { kind: "started", world, verifies, result, waitForAgents };
  }
  const reloadMissing = async () => {
    // An agent pane closed by hand comes back the way `org reload` adds a missing agent.
    const panes = await world.panes(result.record.socket, result.record.session).listPanes();
    const shown = (agent: { name: string }) => panes.some((pane) => pane.options["@org_agent"] === agent.name);
    if (result.record.agents.every(shown)) return undefined;
    // Loaded only here: a plain `org up` starts without the reload machinery.
    const { reloadOrg } = await import("../reload/reload-org.js");
    return reloadOrg(world, { root: input.root, read, by: "org up", apply: true });
  };
  return { kind: "already-running", world, verifies, result, reloadMissing };
}

// org up records every program it saw running; one that died at once waits for the daemon's supervisor to say why.
// Only status files are polled: a full snapshot per poll would spawn tmux and git and slow the very start it waits for.
async function waitUntilStarted(
  world: World, root: string, agents: string[], interrupted: () => boolean,
): Promise<boolean> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (let polls = 0; ; polls++) {
    const statuses = await readStatuses(world, orgPaths(root).state, agents);
    const started = [...statuses.values()].every((status) => status && status.state !== "starting");
    if (started || Date.now() > deadline || interrupted()) return polls > 0;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

// The daemon starts one too, but a daemon that dies before its first look would then have none: `org up` starts it.
async function ensureKeeper(root: string, orgArgv: readonly string[], secrets: readonly string[]): Promise<void> {
  const state = orgPaths(root).state;
  if ((await findRunningKeeper(root, state)) !== undefined) return;
  await startKeeper({ root, state, orgArgv, env: keeperEnv(process.env, secrets) });
}
