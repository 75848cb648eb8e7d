import { basename, join, relative } from "node:path";
import { OrgError } from "../errors.js";
import type { LaunchSpec } from "../state.js";
import type { LaunchRuntime } from "./launch.js";
import type { World } from "../world.js";
import { appendTomlTable, mergeJson, parseStateFile, planConfigState, planConfigTables } from "./config-state.js";

// The first line of a prompt file org wrote: a file without it is the repo's own, never overwritten.
const MARK = "<!-- written by org up from the role prompt; not part of the repo (excluded via .git/info/exclude) -->";

/**
 * The agent's own config folder (with credentials seeded from `userHome` once, and the first-start answers its CLI
 * would ask for) and the prompt file its CLI reads from the worktree. Returns the info/exclude pattern of that file, if
 * any.
 */
export async function prepareRuntimeFiles(
  world: Pick<World, "files" | "secretEnv">, spec: LaunchSpec, prompt: string, userHome: string,
): Promise<string[]> {
  const runtime = spec.runtime;
  if (!runtime) return [];
  // Codex refuses a CODEX_HOME that does not exist: make the folder before the CLI first looks.
  await world.files.mkdir(runtime.home);
  if (userHome) {
    for (const seed of runtime.seed) {
      await seedFile(world, join(userHome, seed.from), runtime.home, join(runtime.home, seed.to));
    }
  }
  await writeConfigState(world, spec, runtime);
  if (!runtime.promptFile) return [];
  // In the agent's worktree: read and replaced without following a link it made there.
  // A link there (the repo's own, or the agent's) is not org's file either.
  const current = await world.files.readUntrusted(spec.cwd, runtime.promptFile).catch(() => "");
  if (current !== undefined && !current.startsWith(MARK)) {
    const name = relative(spec.cwd, runtime.promptFile);
    throw new OrgError(
      `${runtime.promptFile} belongs to the repo, and org would write ${spec.agent}'s role prompt there — `
        + `set prompt_file of its runtime to another file the CLI reads (codex: AGENTS.override.md), `
        + `or move the repo's ${name}`,
      "prompt-file",
    );
  }
  await world.files.writeUntrusted(spec.cwd, runtime.promptFile, `${MARK}\n${prompt}`);
  return [`/${basename(runtime.promptFile)}`];
}

/** Merges org's first-start answers into the CLI's own JSON files, over what it (or the seed) wrote there. */
async function writeConfigState(
  world: Pick<World, "files" | "secretEnv">, spec: LaunchSpec, runtime: LaunchRuntime,
): Promise<void> {
  // The key is read from the environment the program gets, and only its approved suffix ever reaches a file.
  const env = { ...spec.env, ...world.secretEnv(spec.passEnv ?? []) };
  const context = { worktree: spec.cwd, answerTrust: runtime.watch.answerTrust, env };
  for (const patch of planConfigState(runtime.preset, context)) {
    const path = join(runtime.home, patch.file);
    // The agent's own config folder: a link there is not followed but replaced, as a file with nothing of ours.
    const current = parseStateFile(await world.files.readUntrusted(runtime.home, path).catch(() => undefined));
    // Not plain JSON (a seeded settings.json with comments): the CLI's own, not to be rewritten; it asks instead.
    if (current === null) continue;
    const merged = mergeJson(current, patch.set);
    // Unchanged on a later `org up`: no write racing the running CLI's own.
    if (JSON.stringify(merged) === JSON.stringify(current)) continue;
    await world.files.writeUntrusted(runtime.home, path, `${JSON.stringify(merged, null, 2)}\n`);
  }
  for (const table of planConfigTables(runtime.preset, context)) {
    const path = join(runtime.home, table.file);
    const current = await world.files.readUntrusted(runtime.home, path).catch(() => undefined);
    const next = appendTomlTable(current, table);
    if (next !== (current ?? "")) await world.files.writeUntrusted(runtime.home, path, next);
  }
}

/** The user's credentials copied into the agent's home once; what the agent keeps there (a link too) stays as it is. */
async function seedFile(world: Pick<World, "files">, from: string, home: string, to: string): Promise<void> {
  const present = await world.files.readUntrusted(home, to).then((text) => text !== undefined, () => true);
  if (present) return;
  const text = await world.files.readText(from);
  if (text !== undefined) await world.files.writeUntrusted(home, to, text);
}
