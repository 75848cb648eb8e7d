import type { AgentUsage } from "../domain/usage/summary.js";
import type { SpanUsage } from "../domain/usage/windows.js";
import { totalTokens, type TokenCounts } from "../domain/usage/token-counts.js";

/** 950, 12.3k, 4.56M, 1.2G: a count that fits a narrow column. */
export function formatTokens(count: number): string {
  if (count < 1000) return String(count);
  const [divisor, unit] = count < 1e6 ? [1e3, "k"] : count < 1e9 ? [1e6, "M"] : [1e9, "G"];
  const value = count / divisor;
  return `${value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0)}${unit}`;
}

/** <$0.0001, $0.0042, $1.23, $123: two significant digits under a cent, cents up to $100, then whole dollars. */
export function formatUsd(usd: number): string {
  if (usd === 0) return "$0";
  if (usd < 0.0001) return "<$0.0001";
  if (usd < 0.01) return `$${usd.toPrecision(2)}`;
  return usd < 100 ? `$${usd.toFixed(2)}` : `$${Math.round(usd)}`;
}

/** "1.2M $3.40", "1.2M unpriced", "unknown", or "-" for a program that records no usage. */
export function formatUsageCell(usage: (TokenCounts & {
  costUsd: number | null; unknown?: string;
}) | null | undefined): string {
  if (!usage) return "-";
  if (usage.unknown) return "unknown";
  return `${formatTokens(totalTokens(usage))} ${usage.costUsd === null ? "unpriced" : formatUsd(usage.costUsd)}`;
}

/** A span's tokens and dollars in words, for lists: "12.3k tokens, $0.40" or "12.3k tokens, unpriced". */
export function describeSpan(span: SpanUsage): string {
  return `${formatTokens(totalTokens(span))} tokens, ${span.costUsd === null ? "unpriced" : formatUsd(span.costUsd)}`;
}

/** One line per agent whose usage is unknown or unpriced, saying why; nothing when every count is whole and priced. */
export function explainUsage(usage: Map<string, AgentUsage | null>): string[] {
  return [...usage].flatMap(([agent, view]) => {
    if (view?.unknown) return [`${agent}: usage unknown: ${view.unknown}`];
    if (view?.unpriced) return [`${agent}: unpriced: ${view.unpriced}`];
    return [];
  });
}
