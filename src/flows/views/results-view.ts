import type { OrgConfig } from "../../domain/config/index.js";
import { pooledSigma } from "../../domain/experiments/noise.js";
import { listTrustedRows } from "../../domain/experiments/journal-check.js";
import { orgPaths } from "../../domain/paths.js";
import type { VerifierInput } from "../../domain/views/verifier.js";
import { readAndLoadConfig } from "../../adapters/store/config-file.js";
import { readCheckedResults } from "../../adapters/verifier/checked-results.js";
import { readLedgers } from "../../adapters/usage/store.js";
import { readUtilizationInput } from "../../adapters/store/gpu-runs-file.js";
import { readTriedLedger } from "../../adapters/store/tried-ledger-file.js";
import { assertOrgState, readOptionalRecord } from "../../adapters/store/org-record.js";
import { readVerifierInput } from "../../adapters/store/verifier-state.js";
import { readJudgeSpendView } from "../../adapters/store/judge-spend-view.js";
import { readEveryAgentLedger } from "../../adapters/store/agent-ledger.js";

/** What `org results` reads: the verifier's checked rows, org.yaml (when it loads), ledgers, GPU runs and more. */
export async function loadResultsView(root: string, warn: (line: string) => void, now: Date) {
  await assertOrgState(root);
  const { state } = orgPaths(root);
  // Only the verifier's rows count: a row it never journaled is shown as tampered, and told.
  const checked = await readCheckedResults(root, warn);
  const read = await readAndLoadConfig({ cwd: root });
  const config: OrgConfig | undefined = "loaded" in read ? read.loaded.config : undefined;
  const rows = listTrustedRows(checked);
  const [noise, usageLedgers, utilization, tried, judge] = await Promise.all([
    readNoise(state), readLedgers(state, rows.map((row) => row.agent)), readUtilizationInput(state, now),
    readTriedLedger(state), readJudgeSpendView(root, config),
  ]);
  return { checked, rows, config, noise, usageLedgers, utilization, tried: tried.entries, judge };
}

/** What the verifier is doing, for the line shown before a first experiment; undefined without an org record. */
export async function loadVerifierInput(root: string): Promise<VerifierInput | undefined> {
  const record = await readOptionalRecord(root).catch(() => undefined);
  return record && readVerifierInput(root, record.agents.map((agent) => agent.name));
}

/** σ pooled over the baselines recorded in every agent's ledger. */
async function readNoise(state: string): Promise<{ sigma: number | undefined; runs: number }> {
  const ledgers = await readEveryAgentLedger(state);
  const samples = ledgers.flatMap((ledger) => [ledger?.baseline?.samples ?? [], ...(ledger?.noise ?? [])]);
  return { sigma: pooledSigma(samples), runs: samples.reduce((sum, group) => sum + group.length, 0) };
}
