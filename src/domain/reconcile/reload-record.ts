import { isArrayOf, isFields, isOptional, isString } from "../json-fields.js";

/** state/reload.json: how the last attempt to reload the running org ended, read by `org status`. */
export interface ReloadRecord {
  at: string;
  /** daemon, `org reload`, or the meta agent that proposed the edit. */
  by: string;
  outcome: "applied" | "in-sync" | "rejected";
  problems: string[];
  actions: string[];
  /** When a meta edit was last applied: the rate limit's clock. */
  lastMetaAt?: string;
}

const OUTCOMES: ReadonlySet<unknown> = new Set<ReloadRecord["outcome"]>(["applied", "in-sync", "rejected"]);

/** reload.json's JSON as a record; undefined when of another shape. Plain checks: `org status` reads it. */
export function parseReloadRecord(value: unknown): ReloadRecord | undefined {
  const valid = isFields(value) && isString(value.at) && isString(value.by) && OUTCOMES.has(value.outcome)
    && isArrayOf(isString)(value.problems) && isArrayOf(isString)(value.actions)
    && isOptional(isString)(value.lastMetaAt);
  return valid ? (value as unknown as ReloadRecord) : undefined;
}

/** The line `org status` prints while org.yaml holds an edit the running org refused. */
export function describeReloadWarning(record: ReloadRecord | undefined): string[] {
  if (!record || record.outcome !== "rejected") return [];
  const time = record.at.slice(11, 19);
  return [
    `warning: the org.yaml edit seen at ${time} UTC (${record.by}) was rejected; the org runs as before:`,
    ...record.problems.map((problem) => `  ${problem}`),
  ];
}
