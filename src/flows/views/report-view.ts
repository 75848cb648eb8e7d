import { OrgError } from "../../domain/errors.js";
import { orgPaths } from "../../domain/paths.js";
import { resultsPath } from "../../domain/experiments/results-table.js";
import { listTamperedRows, listTrustedRows } from "../../domain/experiments/journal-check.js";
import { readCheckedResults } from "../../adapters/verifier/checked-results.js";
import { readMetricSetting } from "../../adapters/store/config-file.js";
import { readLedgers } from "../../adapters/usage/store.js";
import { readHistoryInput } from "../../adapters/store/program-history-input.js";
import { readUtilizationInput } from "../../adapters/store/gpu-runs-file.js";
import { readJudgeSpendView } from "../../adapters/store/judge-spend-view.js";
import { readLineageInput } from "../../adapters/store/lineage-input.js";
import { readLatestAblationView } from "../../adapters/verifier/ablation-view.js";
import { readRunConfig } from "../../adapters/store/run-config.js";

/**
 * What `org report` reads: the verifier's trusted rows (none, or one without a time when plotting `byTime`, is refused
 * with the fix), the metric, program history, ledgers, the judge's spend, GPU runs, lineage and the latest ablation.
 */
export async function loadReportView(root: string, opts: { byTime: boolean; warn: (line: string) => void; now: Date }) {
  const { state } = orgPaths(root);
  // Only the verifier's rows are plotted and ranked; a tampered one is named in the summary and told.
  const checked = await readCheckedResults(root, opts.warn);
  const rows = listTrustedRows(checked);
  const tampered = listTamperedRows(checked).length;
  if (rows.length === 0) {
    const fix = "nothing to plot; run experiments first (agents call `org submit`)";
    throw new OrgError(`no results yet in ${resultsPath(state)} — ${fix}`, "no-results");
  }
  const untimed = rows.findIndex((row) => Number.isNaN(Date.parse(row.time)));
  if (opts.byTime && untimed >= 0) {
    const row = `row ${untimed + 1} of ${resultsPath(state)} has no time (an autoresearch five-column file?)`;
    throw new OrgError(`${row} — plot by experiment with --x index`, "no-time");
  }
  const setting = await readMetricSetting(root);
  const history = await readHistoryInput(state);
  const ledgers = await readLedgers(state, rows.map((row) => row.agent));
  // The verifier's judge spends apart from the agents: its own clause of the summary.
  const judge = await readJudgeSpendView(root);
  // How busy the GPUs were over the org's life, where the verifier recorded its runs.
  const utilization = await readUtilizationInput(state, opts.now);
  const lineage = await readLineageInput(root);
  const ablation = await readLatestAblation(root, [...new Set(rows.map((row) => row.agent))]);
  const { metricName } = checked;
  return { metricName, rows, tampered, setting, history, ledgers, judge, utilization, lineage, ablation };
}

// The latest `org ablate` (of the org best when there is one), as `org ablate` reads it.
async function readLatestAblation(root: string, agents: string[]) {
  const config = await readRunConfig(root).catch(() => undefined);
  const keep = config && "loaded" in config ? config.loaded.config.verify?.keep : undefined;
  return readLatestAblationView({ root, keep, agents });
}
