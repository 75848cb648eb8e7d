import { crossFraction } from "../../domain/lineage/index.js";
import { loadLineage } from "../../flows/views/lineage-view.js";
import { renderLineage } from "../../ui/lineage-tree.js";
import { formatJson } from "../../domain/safe-text.js";
import type { Io } from "../io.js";

/** `org lineage [--json]`: the tree of kept commits, which built on which, and the share built on another's result. */
export async function runLineage(opts: { root: string; json: boolean }, io: Io): Promise<number> {
  const { lineage, metricName } = await loadLineage(opts.root);
  const fraction = crossFraction(lineage.share);
  io.out(opts.json
    ? formatJson({
      metric: metricName, base: lineage.base ?? null,
      share: { ...lineage.share, fraction: fraction ?? null }, keeps: lineage.nodes,
    })
    : renderLineage(lineage, metricName, io.columns));
  return 0;
}
