// Token usage as the model servers bill it, whatever CLI recorded it.

/** Tokens of one or more replies: `input` excludes cache reads and cache writes, which are counted apart. */
export interface TokenCounts {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** One model reply a CLI recorded: its id (so it is counted once), when, by which model, and its tokens. */
export interface UsageRecord extends TokenCounts {
  id: string;
  /** Epoch milliseconds the CLI recorded the reply at. */
  at: number;
  model: string;
}

/** What one transcript line says about usage. */
export type LineReading =
  | { kind: "usage"; record: UsageRecord }
  /** A line of the CLI's own format that carries no usage. */
  | { kind: "known" }
  /** JSON, but not a line this CLI writes. */
  | { kind: "foreign" }
  /** The CLI's own line with its usage in a shape we do not know. */
  | { kind: "malformed"; why: string };

/** Per-file memory of a reader between lines and polls (Codex: the model of the current turn); plain JSON. */
export type ReadContext = Record<string, string | number | boolean | undefined>;

/** Reads one parsed JSON line of one CLI's transcript. */
export type LineReader = (value: unknown, context: ReadContext) => LineReading;

export const ZERO_COUNTS: TokenCounts = Object.freeze({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });

export function addCounts(a: TokenCounts, b: TokenCounts): TokenCounts {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
  };
}

export function totalTokens(counts: TokenCounts): number {
  return counts.input + counts.output + counts.cacheRead + counts.cacheWrite;
}

/** A token count as recorded: a whole number ≥ 0, else undefined. */
export function readCount(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** The object at `key`, or undefined. */
export function readObject(value: unknown, key?: string): Record<string, unknown> | undefined {
  const found = key === undefined
    ? value
    : value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
  return found !== null && typeof found === "object" && !Array.isArray(found)
    ? (found as Record<string, unknown>)
    : undefined;
}

/** Epoch milliseconds of an ISO time or a millisecond number; undefined when neither. */
export function readTime(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  const parsed = typeof value === "string" ? Date.parse(value) : NaN;
  return Number.isNaN(parsed) ? undefined : parsed;
}
