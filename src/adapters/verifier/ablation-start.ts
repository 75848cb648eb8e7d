// `org ablate`'s start: the target's kept changes, one variant commit each in the verifier's store, each queued once.
import { join } from "node:path";
import type { OrgConfig } from "../../domain/config/index.js";
import { OrgError } from "../../domain/errors.js";
import {
  describeVariant, planVariants, readRowRuns, splitChanges, type AblationRecord,
} from "../../domain/ablation/index.js";
import { requestId, type ExperimentRequest } from "../../domain/experiments/request.js";
import { classifyRow } from "../../domain/experiments/row-kind.js";
import { buildLineage } from "../../domain/lineage/index.js";
import { orgPaths, verifierStorePaths } from "../../domain/paths.js";
import type { OrgRecord } from "../../domain/state.js";
import { createRevertPort } from "../git/revert-changes.js";
import { publishCommit } from "../git/verifier-store.js";
import { readAblation, readVariantResult, writeAblation } from "../store/ablation.js";
import { readLineageInput } from "../store/lineage-input.js";
import { addToQueue, listQueue } from "../store/queue.js";
import { readFrontier } from "../store/frontier-file.js";

export interface AblationStarted {
  record: AblationRecord;
  /** Variants queued by this call; the others were measured or queued already. */
  queued: number;
  resumed: boolean;
}

/** The org best's commit, or why there is none to ablate. */
export async function readBestCommit(state: string): Promise<string> {
  const frontier = await readFrontier(state);
  if (frontier) return frontier.commit;
  const why = "the org has no best yet — `org ablate` takes a kept commit; `org results` lists them";
  throw new OrgError(why, "no-best");
}

interface StartInput {
  record: OrgRecord;
  config: OrgConfig;
  target: string;
  now: Date;
  /** Called once the target is known to be ablatable, before anything is made or queued: throws to stop there. */
  ready: () => Promise<void>;
}

/** Plans the ablation of `target` (or takes the one on disk), then queues each variant not measured and not queued. */
export async function startAblation(input: StartInput): Promise<AblationStarted> {
  const { record, target, now } = input;
  const state = orgPaths(record.root).state;
  const existing = await readAblation(state, target);
  if (existing) await input.ready();
  const plan = existing ?? (await planAblation(input));
  if (!existing) await writeAblation(state, plan);
  return { record: plan, queued: await queueVariants(record, plan, now), resumed: existing !== undefined };
}

async function planAblation(input: StartInput): Promise<AblationRecord> {
  const { record, config, target } = input;
  const verify = config.verify;
  if (!verify) throw new OrgError("org.yaml has no verify section: nothing measures a variant", "no-verify");
  const lineageInput = await readLineageInput(record.root);
  const split = splitChanges(buildLineage(lineageInput), target);
  if (split.kind === "refused") {
    const fix = split.code === "unknown-lineage" ? ""
      : " — name a kept commit from `org lineage`, or none for the org best";
    throw new OrgError(`${split.reason}${fix}; nothing was queued`, `ablate-${split.code}`);
  }
  await input.ready();
  const store = verifierStorePaths(orgPaths(record.root).state);
  const port = createRevertPort({ store: store.repo, checkout: join(store.dir, "ablate"), target });
  // The target itself first: measured again over the same seeds, it is what each variant is held against.
  const variants = [{ reverted: [], commit: target }, ...(await planVariants(split.changes, port))];
  // The variants are the verifier's own commits: published like a stack's, so the research repo names them too.
  for (const { commit } of variants.slice(1)) if (commit) await publishCommit(store.repo, record.repo, commit);
  const baselines = lineageInput.keeps.filter((row) => classifyRow(row) === "baseline").map((row) => row.metric);
  return {
    commit: target, base: record.baseCommit, metric: verify.metric.name, goal: verify.metric.goal,
    best: { metric: split.target.metric, runs: readRowRuns(split.target.description) },
    ...(baselines.length > 0 ? { baseline: baselines.reduce((sum, value) => sum + value, 0) / baselines.length } : {}),
    repeats: verify.repeats, startedAt: input.now.toISOString(), changes: split.changes, variants,
  };
}

// Round the agents' turns: each variant runs in one agent's slot, as a stack does; its row is org's.
async function queueVariants(record: OrgRecord, plan: AblationRecord, now: Date): Promise<number> {
  const paths = orgPaths(record.root);
  const queued = (await listQueue(paths.state)).filter((request) => request.kind === "ablate");
  let count = 0;
  for (const [index, variant] of plan.variants.entries()) {
    const commit = variant.commit;
    if (!commit || queued.some((request) => request.commit === commit)) continue;
    if (await readVariantResult(paths.state, commit)) continue;
    const agent = record.agents[index % record.agents.length]!.name;
    const at = now.toISOString();
    const request: ExperimentRequest = {
      id: requestId(now, agent, `ablate-${commit.slice(0, 12)}`), agent, commit,
      description: describeVariant(plan.commit, variant.reverted),
      kind: "ablate", submittedAt: at, runs: plan.repeats, ablation: { of: plan.commit },
    };
    await addToQueue(paths.state, request);
    count += 1;
  }
  return count;
}
