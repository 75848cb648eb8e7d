// The org as it runs now: org.yaml, or during an A/B run both programs merged (B's agents are agents to every command),
// and each process's one cached reader of it.
import { createHash } from "node:crypto";
import type { OrgConfig } from "../../domain/config/index.js";
import { ConfigError } from "../../domain/errors.js";
import { orgPaths } from "../../domain/paths.js";
import { loadAbPrograms, readAbRun } from "./ab-run.js";
import { readAndLoadConfig, readConfigText, type ReadConfigResult } from "./config-file.js";

/** org.yaml as the running org runs it: during an A/B run, both programs merged as `org up --ab` merged them. */
export async function readRunConfig(root: string, state: string = orgPaths(root).state): Promise<ReadConfigResult> {
  const run = await readAbRun(state);
  if (!run) return readAndLoadConfig({ cwd: root });
  const read = await loadAbPrograms(root, run.b.file);
  return "problems" in read ? read : { loaded: read.loaded };
}

/** The running org's config as every messaging command reads it: problems end the command, as for `org up`. */
export async function loadConfigOrThrow(root: string): Promise<OrgConfig> {
  const read = await readRunConfig(root);
  if ("problems" in read) throw new ConfigError(read.problems);
  return read.loaded.config;
}

/** One process's reader of the running org's config: `read` loads again only when what it is read from changed. */
export interface ConfigReader {
  /** The last load while org.yaml (and, in an A/B run, the run and B's file) reads the same; else a new one. */
  read(): Promise<ReadConfigResult>;
  /** A new load whatever the file says: a reload checks prompts, base and the disk, which the text does not show. */
  reload(): Promise<ReadConfigResult>;
}

/**
 * Keyed on the files' content, not their mtime: an edit within the clock's grain, or a copy that keeps the old
 * mtime, is still seen, and reading a few KB is cheap next to loading (which probes git). A bad edit loads as
 * problems, as `readRunConfig` reports them; what to keep meanwhile is each reader's call, as before.
 */
export function createConfigReader(root: string, state: string = orgPaths(root).state): ConfigReader {
  let last: { key: string; result: ReadConfigResult } | undefined;
  // Kept only once it resolved: a load that threw (git gone for a moment) is tried again on the next read.
  const load = async (key: string) => (last = { key, result: await readRunConfig(root, state) }).result;
  return {
    read: async () => {
      const key = await readSourceKey(root, state);
      return last?.key === key ? last.result : load(key);
    },
    reload: async () => load(await readSourceKey(root, state)),
  };
}

/** A digest of what the running config is read from: org.yaml, the A/B run record and program B's file. */
async function readSourceKey(root: string, state: string): Promise<string> {
  const run = await readAbRun(state);
  const files = ["org.yaml", ...(run ? [run.b.file] : [])];
  const texts = await Promise.all(files.map((file) => readFileText(root, file)));
  return createHash("sha256").update(JSON.stringify([texts, run ?? null])).digest("hex");
}

async function readFileText(root: string, file: string): Promise<string> {
  // A file that cannot be read is a state of its own: loading says why.
  const read = readConfigText(root, file);
  return (await read.catch((error: NodeJS.ErrnoException) => `\0${error.code ?? "unreadable"}`)) ?? "\0missing";
}
