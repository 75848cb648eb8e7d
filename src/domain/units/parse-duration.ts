/** Milliseconds from a schema duration. */
export function parseDuration(value: number | string): number {
  if (typeof value === "number") return value * 1000;
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(value);
  if (!match) throw new Error(`not a duration: ${value}`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] as "ms" | "s" | "m" | "h"];
  return Number(match[1]) * unit;
}
