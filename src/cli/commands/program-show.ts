import { resolve } from "node:path";
import { OrgError } from "../../domain/errors.js";
import { orgPaths } from "../../domain/paths.js";
import { describeAuthor, describeProgramChanges, describeRoles } from "../../domain/config-versions/version-changes.js";
import { normalizePrompt } from "../../domain/config-versions/version.js";
import { readText } from "../../adapters/fs/files.js";
import { readCurrentProgram } from "../../adapters/store/program-current.js";
import { findSavedVersion, readSavedProgram } from "../../adapters/store/programs.js";
import type { Io } from "../io.js";

/** `org program show <version>`: its org.yaml as saved, its prompts against the files now, and what restoring it would change. */
export async function runProgramShow(opts: { root: string; version: string }, io: Io): Promise<number> {
  const state = orgPaths(opts.root).state;
  const version = await findSavedVersion(state, opts.version);
  const copy = await readSavedProgram(state, version);
  if (!copy?.orgYaml) throw new OrgError(`state/programs/${version}/org.yaml is missing: the saved copy is incomplete — pick another version (\`org history\`)`, "program-incomplete");
  io.out(`program ${version}: first run ${copy.meta.firstSeen.replace("T", " ").slice(0, 16)} UTC by ${describeAuthor(copy.meta.by)}${copy.config ? `; ${describeRoles(copy.config)}` : ""}`);
  io.out(`── org.yaml (state/programs/${version}/org.yaml) ──`);
  io.out(copy.orgYaml.replace(/\n$/, ""));
  io.out("── prompts ──");
  for (const [path, text] of Object.entries(copy.prompts).sort(([a], [b]) => a.localeCompare(b))) io.out(`${path}  ${await describePrompt(opts.root, path, text)}`);
  const current = await readCurrentProgram(opts.root);
  io.out("── against the current program ──");
  if (current.source === "none") {
    io.out("org.yaml does not load now, and no earlier program is saved to compare with:");
    for (const problem of current.problems) io.out(`  ${problem}`);
    return 0;
  }
  if (current.source === "last run") io.out(`org.yaml does not load now (${current.problems[0] ?? "?"}); compared with the program that ran last, ${current.version}`);
  if (current.version === version) {
    io.out(`${version} is the current program`);
    return 0;
  }
  if (!copy.config || Object.values(copy.prompts).some((text) => text === undefined)) {
    io.out(`the saved copy is incomplete, so what restoring it would change is unknown`);
    return 0;
  }
  io.out(`restoring ${version} over ${current.version} would change:`);
  const changes = describeProgramChanges(current.content, { config: copy.config, prompts: copy.prompts as Record<string, string> });
  for (const line of changes) io.out(`  ${line}`);
  return 0;
}

/** `12 lines, same as now`, `differs from the file now`, `deleted since: restore brings it back`. */
async function describePrompt(root: string, path: string, text: string | undefined): Promise<string> {
  if (text === undefined) return "missing from the saved copy";
  const lines = `${text.split("\n").length - (text.endsWith("\n") ? 1 : 0)} lines`;
  const now = await readText(resolve(root, path)).catch(() => undefined);
  if (now === undefined) return `${lines}; deleted since — \`org program restore\` brings it back`;
  return `${lines}; ${normalizePrompt(now) === normalizePrompt(text) ? "same as the file now" : "differs from the file now"}`;
}
