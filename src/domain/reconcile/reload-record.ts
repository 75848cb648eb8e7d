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

/** The line `org status` prints while org.yaml holds an edit the running org refused. */
export function describeReloadWarning(record: ReloadRecord | undefined): string[] {
  if (!record || record.outcome !== "rejected") return [];
  const time = record.at.slice(11, 19);
  return [
    `warning: the org.yaml edit seen at ${time} UTC (${record.by}) was rejected; the org runs as before:`,
    ...record.problems.map((problem) => `  ${problem}`),
  ];
}
