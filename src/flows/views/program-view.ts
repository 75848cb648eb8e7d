import { resolve } from "node:path";
import { OrgError } from "../../domain/errors.js";
import { orgPaths } from "../../domain/paths.js";
import { readText } from "../../adapters/fs/files.js";
import { readCurrentProgram } from "../../adapters/store/program-current.js";
import { findSavedVersion, readSavedProgram } from "../../adapters/store/programs.js";

/** One prompt of a saved version: its saved text (undefined: missing from the copy) and the file's text now. */
export interface SavedPrompt {
  path: string;
  text: string | undefined;
  now: string | undefined;
}

/**
 * What `org program show <version>` prints: the saved copy (its org.yaml must be there), its prompts beside the
 * files now, sorted by path, and the current program to compare it with.
 */
export async function loadProgramView(root: string, id: string) {
  const state = orgPaths(root).state;
  const version = await findSavedVersion(state, id);
  const copy = await readSavedProgram(state, version);
  if (!copy?.orgYaml) {
    const why = `state/programs/${version}/org.yaml is missing: the saved copy is incomplete`;
    throw new OrgError(`${why} — pick another version (\`org history\`)`, "program-incomplete");
  }
  const entries = Object.entries(copy.prompts).sort(([a], [b]) => a.localeCompare(b));
  const prompts: SavedPrompt[] = await Promise.all(entries.map(async ([path, text]) => ({
    path, text, now: text === undefined ? undefined : await readText(resolve(root, path)).catch(() => undefined),
  })));
  const current = await readCurrentProgram(root);
  return { version, copy: { ...copy, orgYaml: copy.orgYaml }, prompts, current };
}
