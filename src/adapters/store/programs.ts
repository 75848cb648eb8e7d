// state/programs/: each program version as first seen (org.yaml, its prompts, meta.json) and history.jsonl of
// when each ran.
import { basename, isAbsolute, join, posix } from "node:path";
import { ConfigSchema, type OrgConfig } from "../../domain/config/index.js";
import { isFields, isString } from "../../domain/json-fields.js";
import { OrgError } from "../../domain/errors.js";
import { resolveVersion } from "../../domain/config-versions/resolve-version.js";
import {
  findProgramAt, formatProgramEvent, parseProgramEvents, type ProgramEvent,
} from "../../domain/config-versions/version-timeline.js";
import { listDir } from "../fs/dir.js";
import { appendLines, readJson, readText, writeFileAtomic, writeJsonAtomic } from "../fs/files.js";

/** meta.json of a saved version: when and by whom it was first run, and where each prompt's copy is. */
export interface ProgramMeta {
  version: string;
  firstSeen: string;
  by: string;
  /** Prompt path as org.yaml names it → its copy, relative to the version's folder. */
  prompts: Record<string, string>;
}

/** A saved version as read back: a copy gone from the folder reads as undefined, for the caller to name. */
export interface SavedCopy {
  meta: ProgramMeta;
  dir: string;
  orgYaml: string | undefined;
  config: OrgConfig | undefined;
  prompts: Record<string, string | undefined>;
}

export function programDir(state: string, version: string): string {
  return join(state, "programs", version);
}

function historyFile(state: string): string {
  return join(state, "programs", "history.jsonl");
}

export async function readProgramEvents(state: string): Promise<ProgramEvent[]> {
  return parseProgramEvents((await readText(historyFile(state))) ?? "");
}

export async function appendProgramEvent(state: string, event: ProgramEvent): Promise<void> {
  await appendLines(historyFile(state), [formatProgramEvent(event)]);
}

/** The program an experiment submitted at `time` ran under; undefined (an unversioned row) before any was recorded. */
export async function readProgramAt(state: string, time: string): Promise<string | undefined> {
  return findProgramAt(await readProgramEvents(state), time);
}

/** Versions with a saved folder (one holding meta.json), sorted. */
export async function listSavedVersions(state: string): Promise<string[]> {
  const names = (await listDir(join(state, "programs"))).filter((name) => /^[0-9a-f]+$/.test(name)).sort();
  const kept = await Promise.all(names.map(async (name) => ((await readMeta(state, name)) ? [name] : [])));
  return kept.flat();
}

/**
 * The saved version an id or a prefix of one names; an unknown, ambiguous or vanished one is an error listing
 * the saved ones.
 */
export async function findSavedVersion(state: string, id: string): Promise<string> {
  const used = (await readProgramEvents(state)).flatMap((event) => (event.kind === "use" ? [event.version] : []));
  const lookup = resolveVersion(id, await listSavedVersions(state), used);
  if (lookup.kind !== "found") throw new OrgError(lookup.reason, `program-${lookup.kind}`);
  return lookup.version;
}

function parseMeta(value: unknown): ProgramMeta | undefined {
  const valid = isFields(value) && isString(value.version) && isString(value.firstSeen) && isString(value.by)
    && isFields(value.prompts) && Object.values(value.prompts).every(isString);
  return valid ? (value as unknown as ProgramMeta) : undefined;
}

/**
 * A saved version's meta.json; undefined when missing, unreadable or of another shape: meta.json is written last, so
 * a folder without a readable one is no saved version (a kill midway, or a hand edit), and its callers name it.
 */
export async function readMeta(state: string, version: string): Promise<ProgramMeta | undefined> {
  return parseMeta(await readJson(join(programDir(state, version), "meta.json")).catch(() => undefined));
}

// config.json holds the config as loaded (defaults filled in), which the schema takes as it is.
async function readSavedConfig(dir: string): Promise<OrgConfig | undefined> {
  const value = await readJson(join(dir, "config.json")).catch(() => undefined);
  return ConfigSchema.safeParse(value).success ? (value as OrgConfig) : undefined;
}

export async function readSavedProgram(state: string, version: string): Promise<SavedCopy | undefined> {
  const meta = await readMeta(state, version);
  if (!meta) return undefined;
  const dir = programDir(state, version);
  const prompts = Object.fromEntries(
    await Promise.all(
      Object.entries(meta.prompts).map(async ([path, file]) => [path, await readText(join(dir, file))] as const),
    ),
  );
  const config = await readSavedConfig(dir);
  return { meta, dir, orgYaml: await readText(join(dir, "org.yaml")), config, prompts };
}

/** Write a version's folder: meta.json last, so a folder without it (a kill midway) is not a saved version. */
export async function saveProgram(
  state: string,
  input: {
    version: string; at: string; by: string; orgYaml: string; config: OrgConfig; prompts: Record<string, string>;
  },
): Promise<void> {
  const dir = programDir(state, input.version);
  const files = Object.fromEntries(
    Object.keys(input.prompts).sort().map((path, index) => [path, copyName(path, index)]),
  );
  await writeFileAtomic(join(dir, "org.yaml"), input.orgYaml);
  await writeJsonAtomic(join(dir, "config.json"), input.config);
  for (const [path, file] of Object.entries(files)) await writeFileAtomic(join(dir, file), input.prompts[path]!);
  await writeJsonAtomic(
    join(dir, "meta.json"),
    { version: input.version, firstSeen: input.at, by: input.by, prompts: files } satisfies ProgramMeta,
  );
}

// A prompt inside the org folder keeps its path under files/; one outside it (absolute, ../) gets a name of its own.
function copyName(path: string, index: number): string {
  const inside = !isAbsolute(path) && !posix.normalize(path).startsWith("../");
  return inside
    ? posix.join("files", posix.normalize(path))
    : posix.join("files", "outside", `${index}-${basename(path)}`);
}
