import { COMPARE_METHOD, renderComparison } from "../../ui/compare-table.js";
import type { Io } from "../io.js";
import { describeAbRun } from "../../domain/config-versions/ab-run-record.js";
import { formatJson } from "../../domain/safe-text.js";
import { fitLines } from "../../ui/wrap-text.js";
import { crossFraction, describeShare } from "../../domain/lineage/index.js";
import { describeSideFailures } from "../../ui/gate-failure-line.js";
import { loadComparison } from "../../flows/views/compare-view.js";

/**
 * `org compare [A B] [--json]`: two program versions' measures with 95 % bootstrap intervals, and which is better
 * where that is clear.
 */
export async function runCompare(opts: { root: string; ids: string[]; json: boolean }, io: Io): Promise<number> {
  const { comparison, metricName, goal, ab, shares, sides } = await loadComparison(opts.root, opts.ids);
  const failed = sides.some((side) => side.failures.length > 0);
  const gates = failed ? { gateFailures: { a: sides[0]!.failures, b: sides[1]!.failures } } : {};
  if (opts.json) {
    const withFraction = (share: typeof shares.a) => ({ ...share, fraction: crossFraction(share) ?? null });
    const lineage = { a: withFraction(shares.a), b: withFraction(shares.b) };
    const head = { metric: metricName, goal, method: COMPARE_METHOD, ...(ab ? { ab } : {}) };
    io.out(formatJson({ ...head, ...comparison, lineage, ...gates }));
  } else {
    const table = renderComparison(comparison, metricName, io.columns);
    const lineage = (["a", "b"] as const)
      .map((side) => `lineage ${side.toUpperCase()} (${comparison[side].program}): ${describeShare(shares[side])}`);
    const fit = (lines: string[]) => lines.map((line) => fitLines(line, io.columns));
    const notes = [...fit(lineage), ...fit(describeSideFailures(sides))];
    io.out([...fit(ab ? [describeAbRun(ab)] : []), table, ...notes].join("\n"));
  }
  return 0;
}
