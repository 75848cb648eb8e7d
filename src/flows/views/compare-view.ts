import { OrgError } from "../../domain/errors.js";
import { orgPaths } from "../../domain/paths.js";
import { seededRng } from "../../roles/index.js";
import type { AbRun } from "../../domain/config-versions/ab-run-record.js";
import { COMPARE_SEED } from "../../domain/config-versions/compare-versions.js";
import { compareVersions } from "../../domain/config-versions/compare-pick.js";
import { buildProgramHistory } from "../../domain/config-versions/version-history.js";
import { UNVERSIONED } from "../../domain/config-versions/version.js";
import { tallyGateFailures } from "../../domain/experiments/gate-failures.js";
import type { ResultRow } from "../../domain/experiments/results-table.js";
import { buildLineage, shareOfProgram } from "../../domain/lineage/index.js";
import { readAbRun } from "../../adapters/store/ab-run.js";
import { readMetricSetting } from "../../adapters/store/config-file.js";
import { readLineageInput } from "../../adapters/store/lineage-input.js";
import { readHistoryInput } from "../../adapters/store/program-history-input.js";
import { readTrustedRows } from "../../adapters/verifier/checked-results.js";

type Compared = Extract<ReturnType<typeof compareVersions>, { kind: "compared" }>["comparison"];
type Share = ReturnType<typeof shareOfProgram>;
type Setting = Awaited<ReturnType<typeof readMetricSetting>>;

/** What `org compare` shows: two versions' measures, each one's lineage share and where its experiments failed. */
export interface ComparisonView {
  comparison: Compared;
  metricName: string;
  goal: Setting["goal"];
  ab: AbRun | undefined;
  shares: { a: Share; b: Share };
  sides: { program: string; failures: ReturnType<typeof tallyGateFailures> }[];
}

/** Compares versions `ids` (none during an A/B run: its two live halves); a comparison refused is an error. */
export async function loadComparison(root: string, ids: string[]): Promise<ComparisonView> {
  const state = orgPaths(root).state;
  // The lineage's git reads run beside the rest; a refused comparison leaves its answer unread.
  const lineageInput = readLineageInput(root);
  lineageInput.catch(() => undefined);
  // Only the verifier's rows count, as in `org results`.
  const [rows, { goal, metricName, pricing }, input, ab] = await Promise.all([
    readTrustedRows(state), readMetricSetting(root), readHistoryInput(state),
    ids.length === 0 ? readAbRun(state) : undefined,
  ]);
  const history = buildProgramHistory({ ...input, rows, pricing, goal });
  const saved = [...input.saved.keys()];
  const picked = ab ? [ab.a.version, ab.b.version] : ids;
  const result = compareVersions({ ids: picked, history, rows, saved, goal, random: seededRng(COMPARE_SEED) });
  if (result.kind === "refused") throw new OrgError(result.reason, result.code);
  // The org working as one: how many of each version's keeps built on another agent's result.
  const { nodes } = buildLineage(await lineageInput);
  const { a, b } = result.comparison;
  const shares = { a: shareOfProgram(nodes, a.program), b: shareOfProgram(nodes, b.program) };
  // Where each side's experiments failed verify.gates: what a rate cannot say.
  const sides = [a, b].map(({ program }) => ({ program, failures: tallyOf(rows, program) }));
  return { comparison: result.comparison, metricName, goal, ab, shares, sides };
}

function tallyOf(rows: ResultRow[], program: string) {
  return tallyGateFailures(rows.filter((row) => (row.program || UNVERSIONED) === program));
}
