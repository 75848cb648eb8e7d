import { buildProgramHistory, type ProgramHistoryRow } from "../../domain/config-versions/version-history.js";
import { parseResults } from "../../domain/experiments/results-table.js";
import { orgPaths } from "../../domain/paths.js";
import { readMetricSetting } from "../../adapters/store/config-file.js";
import { assertOrgState } from "../../adapters/store/org-record.js";
import { readHistoryInput } from "../../adapters/store/program-history-input.js";
import { readResultsText } from "../../adapters/store/results-file.js";
import { readTrustedRows } from "../../adapters/verifier/checked-results.js";

type Goal = Awaited<ReturnType<typeof readMetricSetting>>["goal"];

/** What `org history` shows: every program version in order of first use, and the metric it is judged by. */
export async function loadHistory(root: string): Promise<{ rows: ProgramHistoryRow[]; metric: string; goal: Goal }> {
  await assertOrgState(root);
  const state = orgPaths(root).state;
  const table = parseResults(await readResultsText(state));
  const { goal, metricName, pricing } = await readMetricSetting(root);
  // Only the verifier's rows count for a program: `org results` names the tampered ones.
  const input = { ...(await readHistoryInput(state)), rows: await readTrustedRows(state), pricing, goal };
  return { rows: buildProgramHistory(input), metric: table.metricName ?? metricName, goal };
}
