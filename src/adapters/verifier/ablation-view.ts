// An ablation as it stands on disk: its plan, each variant's measure (or whether its request still waits), the table.
import {
  buildContributions, buildWaterfall, type AblationRecord, type ContributionRow, type VariantResult, type WaterfallStep,
} from "../../domain/ablation/index.js";
import { pooledSigma } from "../../domain/experiments/noise.js";
import { orgPaths } from "../../domain/paths.js";
import { listAblations, readVariantResult } from "../store/ablation.js";
import { readFrontier } from "../store/frontier-file.js";
import { listQueue } from "../store/queue.js";
import { readAgentLedgers } from "../store/agent-ledger.js";

export interface AblationView {
  ablation: AblationRecord;
  sigma: number | undefined;
  rows: ContributionRow[];
  waterfall: WaterfallStep[] | undefined;
  /** Variants still queued or running. */
  waiting: number;
  measured: number;
}

const GONE = "not measured: its request is gone (cancelled when the org stopped?) — `org ablate` queues it again";

/** The table of `ablation` now, under org.yaml's keep rule; `agents` pool the noise σ as the verifier does. */
export async function readAblationView(
  input: { root: string; keep: { k: number; min_delta: number } | undefined; agents: string[];
    ablation: AblationRecord; },
): Promise<AblationView> {
  const { ablation } = input;
  const { state } = orgPaths(input.root);
  // The queue first: a variant whose request is gone when its measure is read after it was never measured.
  const requests = (await listQueue(state)).filter((one) => one.kind === "ablate");
  const queued = new Set(requests.map((one) => one.commit));
  const measures = new Map<string, VariantResult>();
  for (const variant of ablation.variants) {
    const found = variant.commit ? await readVariantResult(state, variant.commit) : undefined;
    if (found) measures.set(found.commit, found);
  }
  const sigma = await readSigma(state, input.agents);
  // Without org.yaml's keep rule (a report of an org whose org.yaml is gone): the keep rule's default k.
  const keep = input.keep ?? { k: 2, min_delta: 0 };
  const rows = buildContributions({
    goal: ablation.goal, best: ablation.best, sigma, rule: { k: keep.k, minDelta: keep.min_delta },
    changes: ablation.changes,
    variants: ablation.variants.map((variant) => {
      const measure = variant.commit ? measures.get(variant.commit) : undefined;
      const gone = variant.commit !== undefined && !measure && !queued.has(variant.commit);
      return { ...variant, ...(measure ? { measure } : {}), ...(gone ? { cancelled: GONE } : {}) };
    }),
  });
  return {
    ablation, sigma, rows, waterfall: buildWaterfall({ baseline: ablation.baseline, best: ablation.best.metric, rows }),
    waiting: rows.filter((row) => row.state === "pending").length,
    measured: rows.filter((row) => row.state === "measured" || row.state === "crashed").length,
  };
}

/** For `org report`: the ablation of the org best when there is one, else the newest; none when none was started. */
export async function readLatestAblationView(input: Omit<Parameters<typeof readAblationView>[0], "ablation">)
  : Promise<AblationView | undefined> {
  const { state } = orgPaths(input.root);
  const all = await listAblations(state);
  const best = await readFrontier(state);
  const ablation = all.find((one) => one.commit === best?.commit) ?? all[0];
  return ablation && readAblationView({ ...input, ablation });
}

async function readSigma(state: string, agents: string[]): Promise<number | undefined> {
  const ledgers = await readAgentLedgers(state, agents);
  return pooledSigma(ledgers.flatMap((ledger) => [ledger?.baseline?.samples ?? [], ...(ledger?.noise ?? [])]));
}
