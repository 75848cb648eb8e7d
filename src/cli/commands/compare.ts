import { OrgError } from "../../org/errors.js";
import { orgPaths } from "../../org/paths.js";
import { seededRng } from "../../roles/index.js";
import { COMPARE_SEED } from "../../org/programs/compare.js";
import { compareVersions } from "../../org/programs/compare-pick.js";
import { buildProgramHistory } from "../../org/programs/history.js";
import { readMetricSetting } from "../../adapters/store/config-file.js";
import { readHistoryInput } from "../../adapters/store/program-history-input.js";
import { readTrustedRows } from "../../adapters/verifier/checked-results.js";
import { COMPARE_METHOD, renderComparison } from "../../ui/compare-table.js";
import type { Io } from "../io.js";
import { readAbRun } from "../../adapters/store/ab-run.js";
import { describeAbRun } from "../../org/programs/ab-run.js";
import { formatJson } from "../../org/safe-text.js";
import { fitLines } from "../../ui/wrap-text.js";
import { tallyGateFailures } from "../../org/experiments/gate-failures.js";
import { describeSideFailures } from "../../ui/gate-failures.js";
import { UNVERSIONED } from "../../org/programs/version.js";
import type { ResultRow } from "../../org/experiments/results.js";

/** `org compare [A B] [--json]`: two program versions' measures with 95 % bootstrap intervals, and which is better where that is clear. */
export async function runCompare(opts: { root: string; ids: string[]; json: boolean }, io: Io): Promise<number> {
  const state = orgPaths(opts.root).state;
  // Only the verifier's rows count, as in `org results`.
  const rows = await readTrustedRows(state);
  const { goal, metricName, pricing } = await readMetricSetting(opts.root);
  const input = await readHistoryInput(state);
  const history = buildProgramHistory({ ...input, rows, pricing, goal });
  // No ids during an A/B run: its two live halves.
  const ab = opts.ids.length === 0 ? await readAbRun(state) : undefined;
  const result = compareVersions({ ids: ab ? [ab.a.version, ab.b.version] : opts.ids, history, rows, saved: [...input.saved.keys()], goal, random: seededRng(COMPARE_SEED) });
  if (result.kind === "refused") throw new OrgError(result.reason, result.code);
  // Where each side's experiments failed verify.gates: what a rate cannot say.
  const { a, b } = result.comparison;
  const sides = [a, b].map(({ program }) => ({ program, failures: tallyOf(rows, program) }));
  const failed = sides.some((side) => side.failures.length > 0);
  const gates = failed ? { gateFailures: { a: sides[0]!.failures, b: sides[1]!.failures } } : {};
  if (opts.json) io.out(formatJson({ metric: metricName, goal, method: COMPARE_METHOD, ...(ab ? { ab } : {}), ...result.comparison, ...gates }));
  else {
    const table = renderComparison(result.comparison, metricName, io.columns);
    const fit = (lines: string[]) => lines.map((line) => fitLines(line, io.columns));
    io.out([...fit(ab ? [describeAbRun(ab)] : []), table, ...fit(describeSideFailures(sides))].join("\n"));
  }
  return 0;
}

function tallyOf(rows: ResultRow[], program: string) {
  return tallyGateFailures(rows.filter((row) => (row.program || UNVERSIONED) === program));
}
