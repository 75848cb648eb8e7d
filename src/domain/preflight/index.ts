// The pre-flight's public surface: what `org up` and `org validate --run` check in the repo before anything runs.
import type { OrgConfig } from "../config/index.js";
import type { Gpu } from "../lifecycle/select-gpus.js";
import type { BaseTree, Findings } from "./base-tree.js";
import { checkCommands } from "./commands.js";
import { describeDirty, type DirtyFile } from "./dirty.js";
import { checkGlobs } from "./globs.js";
import { checkGpuList } from "./gpus.js";
import { warnSuiteSize } from "../contracts/suite-size.js";

export { describeBase, type BaseTree, type Findings } from "./base-tree.js";
export { listCommandPaths, type CommandPath } from "./commands.js";
export type { DirtyFile } from "./dirty.js";
export { readMetricRun, type MetricReading } from "./metric-run.js";

/** What the repo says, read by the adapters: the base's files, command files on disk, the GPUs, uncommitted files. */
export interface RepoFacts {
  tree: BaseTree;
  /** Command paths (listCommandPaths) that exist in the repo folder. */
  onDisk: ReadonlySet<string>;
  /** nvidia-smi's answer; only asked for an explicit GPU list. */
  gpus?: Gpu[] | { error: string };
  dirty: readonly DirtyFile[];
  /** org.yaml and the prompts, repo-relative: read from the disk, so their uncommitted edits are no warning. */
  ownFiles: readonly string[];
}

/** Every problem (org.yaml positions) and warning at once; `dirty` is the uncommitted-changes warning, if any. */
export function checkRepo(config: OrgConfig, facts: RepoFacts): Findings & { dirty?: string } {
  const globs = checkGlobs(config, facts.tree);
  const commands = checkCommands(config, facts.tree, facts.onDisk);
  const gpus = facts.gpus ? checkGpuList(config, facts.gpus) : [];
  const dirty = describeDirty(facts.dirty, facts.tree, facts.ownFiles);
  return {
    problems: [...globs.problems, ...commands.problems, ...gpus],
    warnings: [...globs.warnings, ...commands.warnings, ...warnSuiteSize(config)],
    ...(dirty ? { dirty } : {}),
  };
}

/** Whether the pre-flight must ask nvidia-smi: only an explicit GPU list on this host is checked. */
export function needsGpuProbe(config: OrgConfig): boolean {
  return Array.isArray(config.gpus) && config.backend !== "slurm";
}
