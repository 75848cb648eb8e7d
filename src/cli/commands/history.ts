import { orgPaths } from "../../domain/paths.js";
import { parseResults } from "../../domain/experiments/results-table.js";
import { buildProgramHistory } from "../../domain/config-versions/version-history.js";
import { readResultsText } from "../../adapters/store/results-file.js";
import { readMetricSetting } from "../../adapters/store/config-file.js";
import { readHistoryInput } from "../../adapters/store/program-history-input.js";
import { readTrustedRows } from "../../adapters/verifier/checked-results.js";
import { ATTRIBUTION, renderHistory } from "../../ui/history-table.js";
import { assertOrgState } from "../../adapters/store/org-record.js";
import type { Io } from "../io.js";
import { formatJson } from "../../domain/safe-text.js";

/** `org history [--json]`: every program version in order of first use, with what the org did while it ran. */
export async function runHistory(opts: { root: string; json: boolean }, io: Io): Promise<number> {
  await assertOrgState(opts.root);
  const state = orgPaths(opts.root).state;
  const table = parseResults(await readResultsText(state));
  const { goal, metricName, pricing } = await readMetricSetting(opts.root);
  // Only the verifier's rows count for a program: `org results` names the tampered ones.
  const rows = buildProgramHistory({ ...(await readHistoryInput(state)), rows: await readTrustedRows(state), pricing, goal });
  const metric = table.metricName ?? metricName;
  const json = () => formatJson({ metric, goal, attribution: ATTRIBUTION, programs: rows });
  io.out(opts.json ? json() : renderHistory(rows, metric, io.columns));
  return 0;
}
