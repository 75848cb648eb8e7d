import { OrgError } from "../../domain/errors.js";
import { resultsPath } from "../../domain/experiments/results-table.js";
import { buildLineage, type Lineage } from "../../domain/lineage/index.js";
import { orgPaths } from "../../domain/paths.js";
import { readMetricSetting } from "../../adapters/store/config-file.js";
import { readLineageInput } from "../../adapters/store/lineage-input.js";
import { assertOrgState } from "../../adapters/store/org-record.js";

/** What `org lineage` shows: the tree of kept commits and the metric; no keeps yet is an error that says so. */
export async function loadLineage(root: string): Promise<{ lineage: Lineage; metricName: string }> {
  await assertOrgState(root);
  const input = await readLineageInput(root);
  const lineage = buildLineage(input);
  if (lineage.nodes.length === 0) {
    const results = resultsPath(orgPaths(root).state);
    const why = "the lineage starts at the first kept experiment; `org results` shows what was judged so far";
    throw new OrgError(`no keeps yet in ${results} — ${why}`, "no-keeps");
  }
  return { lineage, metricName: input.metricName ?? (await readMetricSetting(root)).metricName };
}
