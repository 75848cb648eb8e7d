import { OrgError } from "../../domain/errors.js";
import { orgPaths } from "../../domain/paths.js";
import { readOptionalRecord } from "../../adapters/store/org-record.js";
import { loadSavedProgram } from "../../adapters/store/program-load.js";
import { findSavedVersion, readSavedProgram } from "../../adapters/store/programs.js";
import { createWorld } from "../../adapters/real-world.js";
import { reloadWhenFree, type SettledOutcome } from "./reload-now.js";

/** What restoring a program version did: refused as invalid, written for the next `org up`, or applied as a reload. */
export type RestoreOutcome =
  | { kind: "invalid"; version: string; problems: string[] }
  | { kind: "written"; version: string; prompts: string[] }
  | { kind: "reloaded"; version: string; outcome: SettledOutcome };

/**
 * `org program restore <version>`: its org.yaml and prompts written back, checked first as a save is. A running org
 * applies it at once, under the lock, as `org reload` would; one that no longer validates changes nothing.
 */
export async function restoreProgram(root: string, wanted: string): Promise<RestoreOutcome> {
  const state = orgPaths(root).state;
  const version = await findSavedVersion(state, wanted);
  const copy = await readSavedProgram(state, version);
  if (!copy) {
    const fix = "pick another version (`org history`)";
    throw new OrgError(`state/programs/${version}/meta.json cannot be read — ${fix}`, "program-incomplete");
  }
  const saved = await loadSavedProgram(root, copy);
  if (!saved.ok) return { kind: "invalid", version, problems: saved.problems };
  const world = createWorld();
  const record = await readOptionalRecord(root);
  if (!record || !(await world.panes(record.socket, record.session).isRunning())) {
    return { kind: "written", version, prompts: await saved.write() };
  }
  const outcome = await reloadWhenFree(world, {
    root, read: { loaded: saved.loaded }, by: `org program restore ${version}`, readTemplate: saved.readPrompt,
    beforeApply: async () => void (await saved.write()),
  }, `org program restore ${version}`);
  return { kind: "reloaded", version, outcome };
}
