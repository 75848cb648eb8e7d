import { orgPaths } from "../../domain/paths.js";
import { decideStoppedUp } from "../../domain/lifecycle/stopped-up.js";
import type { LoadedConfig } from "../../domain/config/index.js";
import type { World } from "../../domain/world.js";
import { readOptionalRecord } from "../../adapters/store/org-record.js";
import { evaluateStop, readWaivers, writeWaivers } from "../../adapters/store/stop-watch-state.js";
import { readStopFile } from "../../adapters/store/stop-file.js";
import { findMissingPrograms, findProgram } from "../../adapters/probes/runtime.js";
import { calibrateJudge } from "../../adapters/verifier/judge-calibration.js";
import { runPreflight } from "../../adapters/probes/preflight.js";

/** Lines for stdout (`say`) and stderr (`warn`) as the checks go. */
interface Say {
  say(line: string): void;
  warn(line: string): void;
}

/**
 * What `org up` checks before it creates anything: the programs each pane runs, the repo, the stop condition
 * (waived with `resume`) and the judge's calibration. The problems that refuse it; none, it may start.
 */
export async function checkUp(
  world: World, root: string, loaded: LoadedConfig, resume: boolean, out: Say,
): Promise<string[]> {
  // The trial sandbox (a bwrap start) runs while the programs and the stop are checked: org up awaits it later.
  if (loaded.config.sandbox?.enabled !== false) void world.sandbox.probe();
  // Checked before anything is created: a pane whose program is missing would only restart-loop.
  const [programs, preflight] = await Promise.all([
    findMissingPrograms(loaded.config, loaded.repoDir), runPreflight(loaded, world.gpus),
  ]);
  // Uncommitted changes and files a role may only create are said, and the org starts without them.
  for (const warning of preflight.warnings) out.warn(warning);
  const missing = [...programs, ...preflight.problems];
  if (missing.length > 0) return missing;
  const refused = await checkStop(root, loaded, resume, out.say);
  if (refused) return [refused];
  // A judge not calibrated on the references, or one that cannot tell them apart, judges nothing: nothing starts.
  const calibration = await calibrateJudge(loaded, out.warn);
  if (calibration.kind === "refused") return [calibration.message];
  if (calibration.kind !== "none") out.warn(calibration.summary);
  return [];
}

/** Why a stop condition refuses this `org up`; with `resume`, the conditions met are waived and the daemon goes on. */
async function checkStop(
  root: string, loaded: LoadedConfig, resume: boolean, say: (line: string) => void,
): Promise<string | undefined> {
  // A half-written org.json is upOrg's to explain (`org down`, then `org up`), not a crash here.
  const record = await readOptionalRecord(root).catch(() => undefined);
  if (!record || !loaded.config.stop) return undefined;
  const state = orgPaths(root).state;
  const stopped = await readStopFile(state);
  const decision = await evaluateStop({ config: loaded.config, record, now: new Date() });
  const up = decideStoppedUp({
    name: loaded.config.name, stop: loaded.config.stop, decision,
    record: stopped?.kind === "stop" ? stopped : undefined, resume, waived: await readWaivers(state),
  });
  if (up.kind === "refuse") return up.reason;
  if (up.kind === "waive") {
    await writeWaivers(state, up.waivers);
    say(up.reason);
  }
  return undefined;
}

/** tmux when asked for and installed; else node-pty, with a notice when tmux was asked for but is missing. */
export async function chooseMode(wantTmux: boolean, warn: (line: string) => void): Promise<"tmux" | "pty"> {
  if (!wantTmux) return "pty";
  // A PATH lookup, not a `tmux -V`: every process spawned here is time a person waits on `org up`.
  if (await findProgram("tmux", process.cwd())) return "tmux";
  warn("notice: tmux not found on PATH — running the org without it (node-pty); watch it with `org watch`");
  return "pty";
}
