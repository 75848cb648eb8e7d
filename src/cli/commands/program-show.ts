import { describeAuthor, describeProgramChanges, describeRoles } from "../../domain/config-versions/version-changes.js";
import { normalizePrompt } from "../../domain/config-versions/version.js";
import { loadProgramView, type SavedPrompt } from "../../flows/views/program-view.js";
import type { Io } from "../io.js";

/**
 * `org program show <version>`: its org.yaml as saved, its prompts against the files now, and what restoring
 * it would change.
 */
export async function runProgramShow(opts: { root: string; version: string }, io: Io): Promise<number> {
  const { version, copy, prompts, current } = await loadProgramView(opts.root, opts.version);
  io.out(
    `program ${version}: first run ${copy.meta.firstSeen.replace("T", " ").slice(0, 16)} UTC by `
      + `${describeAuthor(copy.meta.by)}${copy.config ? `; ${describeRoles(copy.config)}` : ""}`,
  );
  io.out(`── org.yaml (state/programs/${version}/org.yaml) ──`);
  io.out(copy.orgYaml.replace(/\n$/, ""));
  io.out("── prompts ──");
  for (const prompt of prompts) io.out(`${prompt.path}  ${describePrompt(prompt)}`);
  io.out("── against the current program ──");
  if (current.source === "none") {
    io.out("org.yaml does not load now, and no earlier program is saved to compare with:");
    for (const problem of current.problems) io.out(`  ${problem}`);
    return 0;
  }
  if (current.source === "last run") io.out(
    `org.yaml does not load now (${current.problems[0] ?? "?"}); compared with the program that ran last, `
      + `${current.version}`,
  );
  if (current.version === version) {
    io.out(`${version} is the current program`);
    return 0;
  }
  if (!copy.config || Object.values(copy.prompts).some((text) => text === undefined)) {
    io.out(`the saved copy is incomplete, so what restoring it would change is unknown`);
    return 0;
  }
  io.out(`restoring ${version} over ${current.version} would change:`);
  const changes = describeProgramChanges(current.content, {
    config: copy.config, prompts: copy.prompts as Record<string, string>,
  });
  for (const line of changes) io.out(`  ${line}`);
  return 0;
}

/** `12 lines, same as now`, `differs from the file now`, `deleted since: restore brings it back`. */
function describePrompt({ text, now }: SavedPrompt): string {
  if (text === undefined) return "missing from the saved copy";
  const lines = `${text.split("\n").length - (text.endsWith("\n") ? 1 : 0)} lines`;
  if (now === undefined) return `${lines}; deleted since — \`org program restore\` brings it back`;
  const same = normalizePrompt(now) === normalizePrompt(text);
  return `${lines}; ${same ? "same as the file now" : "differs from the file now"}`;
}
