import { resultsPath } from "../../domain/experiments/results-table.js";
import { OrgError } from "../../domain/errors.js";
import { orgPaths } from "../../domain/paths.js";
import { buildLineage, crossFraction } from "../../domain/lineage/index.js";
import { readMetricSetting } from "../../adapters/store/config-file.js";
import { readLineageInput } from "../../adapters/store/lineage-input.js";
import { assertOrgState } from "../../adapters/store/org-record.js";
import { renderLineage } from "../../ui/lineage-tree.js";
import { formatJson } from "../../domain/safe-text.js";
import type { Io } from "../io.js";

/** `org lineage [--json]`: the tree of kept commits, which built on which, and the share built on another's result. */
export async function runLineage(opts: { root: string; json: boolean }, io: Io): Promise<number> {
  await assertOrgState(opts.root);
  const input = await readLineageInput(opts.root);
  const lineage = buildLineage(input);
  if (lineage.nodes.length === 0) {
    const results = resultsPath(orgPaths(opts.root).state);
    const why = "the lineage starts at the first kept experiment; `org results` shows what was judged so far";
    throw new OrgError(`no keeps yet in ${results} — ${why}`, "no-keeps");
  }
  const metricName = input.metricName ?? (await readMetricSetting(opts.root)).metricName;
  const fraction = crossFraction(lineage.share);
  io.out(opts.json
    ? formatJson({
      metric: metricName, base: lineage.base ?? null,
      share: { ...lineage.share, fraction: fraction ?? null }, keeps: lineage.nodes,
    })
    : renderLineage(lineage, metricName, io.columns));
  return 0;
}
