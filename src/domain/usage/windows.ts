// Which tokens went into which experiment: results rows and an agent's ledger, matched by agent and time.
import type { ResultRow } from "../experiments/results-table.js";
import { priceCounts, type Pricing } from "./pricing.js";
import { addCounts, ZERO_COUNTS, type TokenCounts, type UsageRecord } from "./token-counts.js";

/** Tokens of a stretch of an agent's time, and their dollars (null: unpriced, with the reason). */
export interface SpanUsage extends TokenCounts {
  replies: number;
  costUsd: number | null;
  unpriced?: string;
}

/**
 * A kept improvement (not a baseline) and what it took: every reply since the agent's previous
 * keep up to its submit.
 */
export interface KeepCost {
  agent: string;
  commit: string;
  metric: number | undefined;
  description: string;
  time: string;
  /** The agent's experiments since its previous keep, this one included. */
  experiments: number;
  usage: SpanUsage;
}

/**
 * An experiment's submit: the verification's start, its verdict time less its run seconds. A queued experiment
 * waited between the two, while its agent sat in `org submit`.
 */
function submitTime(row: ResultRow): number {
  return Date.parse(row.time) - row.seconds * 1000;
}

/** The agent's replies with from < at ≤ to, summed and priced. */
function sumSpan(records: UsageRecord[], from: number, to: number, pricing: Pricing): SpanUsage {
  let counts: TokenCounts = ZERO_COUNTS;
  const byModel = new Map<string, TokenCounts>();
  let replies = 0;
  for (const record of records) {
    if (!(record.at > from && record.at <= to)) continue;
    replies++;
    counts = addCounts(counts, record);
    byModel.set(record.model, addCounts(byModel.get(record.model) ?? ZERO_COUNTS, record));
  }
  let usd = 0;
  for (const [model, modelCounts] of byModel) {
    const cost = priceCounts(modelCounts, model, pricing);
    if (cost.kind === "unpriced") return { ...counts, replies, costUsd: null, unpriced: cost.reason };
    usd += cost.usd;
  }
  return { ...counts, replies, costUsd: usd };
}

/** Per row: the tokens its agent spent between its previous verdict and this experiment's submit. */
export function attributeWindows(
  rows: ResultRow[], ledgers: Map<string, UsageRecord[]>, pricing: Pricing,
): (SpanUsage | undefined)[] {
  const lastVerdict = new Map<string, number>();
  return rows.map((row) => {
    const from = lastVerdict.get(row.agent) ?? -Infinity;
    lastVerdict.set(row.agent, Date.parse(row.time));
    const records = ledgers.get(row.agent);
    return records ? sumSpan(records, from, submitTime(row), pricing) : undefined;
  });
}

/** Every kept improvement with the tokens and dollars since its agent's previous keep (its baseline for the first). */
export function costKeeps(rows: ResultRow[], ledgers: Map<string, UsageRecord[]>, pricing: Pricing): KeepCost[] {
  const lastKeep = new Map<string, { at: number; experiments: number }>();
  const keeps: KeepCost[] = [];
  for (const row of rows) {
    const since = lastKeep.get(row.agent) ?? { at: -Infinity, experiments: 0 };
    const experiments = since.experiments + 1;
    lastKeep.set(row.agent, { ...since, experiments });
    if (row.status !== "keep") continue;
    lastKeep.set(row.agent, { at: Date.parse(row.time), experiments: 0 });
    const records = ledgers.get(row.agent);
    if (row.description === "baseline" || !records) continue;
    keeps.push({
      agent: row.agent,
      commit: row.commit,
      metric: row.metric,
      description: row.description,
      time: row.time,
      experiments,
      usage: sumSpan(records, since.at, submitTime(row), pricing),
    });
  }
  return keeps;
}

/** An agent's whole spend, and per kept improvement (its baseline not counted as one). */
export interface AgentSpend extends SpanUsage {
  improvements: number;
  /** Dollars over improvements; null when unpriced or none yet. */
  costPerKeepUsd: number | null;
}

export interface ResultsUsage {
  agents: Record<string, AgentSpend>;
  keeps: KeepCost[];
  /** Per results row, in file order: its experiment window (undefined for an agent with no ledger). */
  windows: (SpanUsage | undefined)[];
}

/** Tokens and dollars next to the leaderboard: per agent, per kept improvement, per experiment. */
export function buildResultsUsage(
  rows: ResultRow[], ledgers: Map<string, UsageRecord[]>, pricing: Pricing,
): ResultsUsage {
  const keeps = costKeeps(rows, ledgers, pricing);
  const agents: Record<string, AgentSpend> = {};
  for (const [agent, records] of ledgers) {
    const total = sumSpan(records, -Infinity, Infinity, pricing);
    const improvements = keeps.filter((keep) => keep.agent === agent).length;
    agents[agent] = {
      ...total,
      improvements,
      costPerKeepUsd: total.costUsd !== null && improvements > 0 ? total.costUsd / improvements : null,
    };
  }
  return { agents, keeps, windows: attributeWindows(rows, ledgers, pricing) };
}
