// The org as it runs now: org.yaml, or during an A/B run both programs merged, so B's agents are agents to every command.
import type { OrgConfig } from "../../org/config/index.js";
import { ConfigError } from "../../org/errors.js";
import { orgPaths } from "../../org/paths.js";
import { loadAbPrograms, readAbRun } from "./ab-run.js";
import { readAndLoadConfig, type ReadConfigResult } from "./config-file.js";

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
