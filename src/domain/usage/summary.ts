// state/agents/<agent>/usage.json: the daemon's latest sums
// for one agent, priced, which `org status` shows as they are.
import { join } from "node:path";
import type { FilesPort } from "../ports.js";
import { priceModels, type Pricing } from "./pricing.js";
import type { UsageTally } from "./ledger.js";
import type { TokenCounts } from "./token-counts.js";
import { isBoolean, isFields, isNullable, isNumber, isString, parseJsonText } from "../json-fields.js";

/** What `org status --json` shows per agent (null there for an agent whose program records no usage). */
export interface AgentUsage extends TokenCounts {
  costUsd: number | null;
  priced: boolean;
  /** Why there is no cost: a model with no price. */
  unpriced?: string;
  /** Why the count may be short or wrong: an unreadable or truncated file, a line of an unknown shape. */
  unknown?: string;
}

export interface UsageSummary extends AgentUsage {
  updatedAt: string;
  /** The CLI read, or null when the agent's program records nothing org can read (then `none` says why). */
  cli: string | null;
  none?: string;
  replies: number;
  byModel: Record<string, TokenCounts>;
}

/** The sums priced with org.yaml's table as it is now: a price edit shows at the daemon's next read. */
export function buildSummary(input: {
  cli: string | null;
  none?: string;
  tally: UsageTally;
  pricing: Pricing;
  unknown?: string;
  now: Date;
}): UsageSummary {
  const { tally } = input;
  return {
    updatedAt: input.now.toISOString(), cli: input.cli, ...(input.none ? { none: input.none } : {}),
    replies: tally.replies, ...tally.total, ...priceModels(tally.byModel, input.pricing), byModel: tally.byModel,
    ...(input.unknown ? { unknown: input.unknown } : {}),
  };
}

/** The status view of a summary read back from disk; none yet (or not parseable) is unknown, with why. */
export function viewUsage(text: string | undefined): AgentUsage | null {
  const summary = parseSummary(text);
  if (!summary) {
    const why =
      text === undefined
        ? "not read yet: the daemon reads each agent's transcripts every few seconds"
        : "usage.json does not parse";
    return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, costUsd: null, priced: false, unknown: why };
  }
  if (summary.cli === null) return null;
  const { input, output, cacheRead, cacheWrite, costUsd, priced, unpriced, unknown } = summary;
  return {
    input,
    output,
    cacheRead,
    cacheWrite,
    costUsd,
    priced,
    ...(unpriced ? { unpriced } : {}),
    ...(unknown ? { unknown } : {}),
  };
}

const COUNTS = ["input", "output", "cacheRead", "cacheWrite"] as const;

const isCounts = (value: unknown): boolean => isFields(value) && COUNTS.every((key) => isNumber(value[key]));

// Field by field, not zod: `org status` reads every agent's.
function isSummary(value: unknown): value is UsageSummary {
  return isCounts(value) && isFields(value) && isString(value.updatedAt) && isNullable(isString)(value.cli)
    && isNumber(value.replies) && isNullable(isNumber)(value.costUsd) && isBoolean(value.priced)
    && isFields(value.byModel) && Object.values(value.byModel).every(isCounts);
}

function parseSummary(text: string | undefined): UsageSummary | undefined {
  const value = parseJsonText(text);
  return isSummary(value) ? value : undefined;
}

/**
 * Where the daemon keeps one agent's usage: the summary `org status` reads, the ledger of replies, its read positions.
 */
export function usagePaths(state: string, agent: string): { summary: string; ledger: string; cursors: string } {
  const dir = join(state, "agents", agent);
  return {
    summary: join(dir, "usage.json"),
    ledger: join(dir, "usage.jsonl"),
    cursors: join(dir, "usage-cursors.json"),
  };
}

/** Every agent's usage as the daemon last wrote it: one small file each, never a transcript, so status stays fast. */
export async function readUsageViews(
  files: Pick<FilesPort, "readText">,
  state: string,
  agents: string[],
): Promise<Map<string, AgentUsage | null>> {
  const views = await Promise.all(
    agents.map(async (agent) => {
      const text = await files.readText(usagePaths(state, agent).summary).catch((error: Error) => error);
      if (text instanceof Error)
        return [agent, { ...viewUsage(undefined)!, unknown: `usage.json cannot be read: ${text.message}` }] as const;
      return [agent, viewUsage(text)] as const;
    }),
  );
  return new Map(views);
}

/** Written whole or not at all, by the daemon's usage reader alone. */
export async function writeUsageSummary(
  files: Pick<FilesPort, "writeAtomic">, state: string, agent: string, summary: UsageSummary,
): Promise<void> {
  await files.writeAtomic(usagePaths(state, agent).summary, `${JSON.stringify(summary, null, 2)}\n`);
}
