import { access } from "node:fs/promises";
import { basename, isAbsolute, join, relative, resolve } from "node:path";
import { formatProblems, type LoadedConfig } from "../../domain/config/index.js";
import { checkRepo, listCommandPaths, needsGpuProbe } from "../../domain/preflight/index.js";
import type { GpuProbe } from "../../domain/ports.js";
import { readBaseTree, readDirtyFiles } from "../git/tree-listing.js";

/** The pre-flight's answer, printed as is: problems as `file:line:col: what — fix`, warnings after `warning: `. */
export interface PreflightReport {
  problems: string[];
  warnings: string[];
}

/** Reads the repo at its base (files, command paths, uncommitted changes, an explicit list's GPUs) and checks it. */
export async function runPreflight(loaded: LoadedConfig, gpus: GpuProbe): Promise<PreflightReport> {
  const { config, repoDir, baseCommit } = loaded;
  const commandPaths = listCommandPaths(config);
  const [tree, dirty, present, probed] = await Promise.all([
    readBaseTree(repoDir, config.base, baseCommit),
    readDirtyFiles(repoDir),
    Promise.all(commandPaths.map(async ({ file }) => ((await isOnDisk(join(repoDir, file))) ? file : undefined))),
    needsGpuProbe(config) ? gpus.probe() : Promise.resolve(undefined),
  ]);
  const onDisk = new Set(present.filter((file) => file !== undefined));
  const facts = { tree, onDisk, dirty, ownFiles: listOwnFiles(loaded), ...(probed ? { gpus: probed } : {}) };
  const findings = checkRepo(config, facts);
  const format = (problems: typeof findings.problems) => formatProblems(loaded.file, loaded.text, problems);
  return {
    problems: format(findings.problems),
    warnings: [...format(findings.warnings), ...(findings.dirty ? [findings.dirty] : [])]
      .map((line) => `warning: ${line}`),
  };
}

/** org.yaml and the prompts, relative to the repo when they lie in it. */
function listOwnFiles(loaded: LoadedConfig): string[] {
  const prompts = Object.values(loaded.config.roles).map((role) => resolve(loaded.dir, role.prompt));
  return [join(loaded.dir, basename(loaded.file)), ...prompts]
    .map((file) => relative(loaded.repoDir, file))
    .filter((file) => file !== "" && !file.startsWith("..") && !isAbsolute(file));
}

function isOnDisk(path: string): Promise<boolean> {
  return access(path).then(() => true, () => false);
}
