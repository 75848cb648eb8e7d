import { OrgError } from "../../domain/errors.js";
import { orgPaths } from "../../domain/paths.js";
import { seededRng } from "../../roles/index.js";
import { COMPARE_SEED } from "../../domain/config-versions/compare-versions.js";
import { compareVersions } from "../../domain/config-versions/compare-pick.js";
import { buildProgramHistory } from "../../domain/config-versions/version-history.js";
import { readMetricSetting } from "../../adapters/store/config-file.js";
import { readHistoryInput } from "../../adapters/store/program-history-input.js";
import { readTrustedRows } from "../../adapters/verifier/checked-results.js";
import { COMPARE_METHOD, renderComparison } from "../../ui/compare-table.js";
import type { Io } from "../io.js";
import { readAbRun } from "../../adapters/store/ab-run.js";
import { describeAbRun } from "../../domain/config-versions/ab-run-record.js";
import { formatJson } from "../../domain/safe-text.js";
import { fitLines } from "../../ui/wrap-text.js";
import { buildLineage, crossFraction, describeShare, shareOfProgram } from "../../domain/lineage/index.js";
import { readLineageInput } from "../../adapters/store/lineage-input.js";
import { tallyGateFailures } from "../../domain/experiments/gate-failures.js";
import { describeSideFailures } from "../../ui/gate-failure-line.js";
import { UNVERSIONED } from "../../domain/config-versions/version.js";
import type { ResultRow } from "../../domain/experiments/results-table.js";

/** `org compare [A B] [--json]`: two program versions' measures with 95 % bootstrap intervals, and which is better where that is clear. */
export async function runCompare(opts: { root: string; ids: string[]; json: boolean }, io: Io): Promise<number> {
  const state = orgPaths(opts.root).state;
  // The lineage's git reads run beside the rest; a refused comparison leaves its answer unread.
  const lineageInput = readLineageInput(opts.root);
  lineageInput.catch(() => undefined);
  // Only the verifier's rows count, as in `org results`. No ids during an A/B run: its two live halves.
  const [rows, { goal, metricName, pricing }, input, ab] = await Promise.all([
    readTrustedRows(state), readMetricSetting(opts.root), readHistoryInput(state),
    opts.ids.length === 0 ? readAbRun(state) : undefined,
  ]);
  const history = buildProgramHistory({ ...input, rows, pricing, goal });
  const ids = ab ? [ab.a.version, ab.b.version] : opts.ids;
  const saved = [...input.saved.keys()];
  const result = compareVersions({ ids, history, rows, saved, goal, random: seededRng(COMPARE_SEED) });
  if (result.kind === "refused") throw new OrgError(result.reason, result.code);
  // The org working as one: how many of each version's keeps built on another agent's result.
  const { nodes } = buildLineage(await lineageInput);
  const { a, b } = result.comparison;
  const shares = { a: shareOfProgram(nodes, a.program), b: shareOfProgram(nodes, b.program) };
  // Where each side's experiments failed verify.gates: what a rate cannot say.
  const sides = [a, b].map(({ program }) => ({ program, failures: tallyOf(rows, program) }));
  const failed = sides.some((side) => side.failures.length > 0);
  const gates = failed ? { gateFailures: { a: sides[0]!.failures, b: sides[1]!.failures } } : {};
  if (opts.json) {
    const withFraction = (share: typeof shares.a) => ({ ...share, fraction: crossFraction(share) ?? null });
    const lineage = { a: withFraction(shares.a), b: withFraction(shares.b) };
    const head = { metric: metricName, goal, method: COMPARE_METHOD, ...(ab ? { ab } : {}) };
    io.out(formatJson({ ...head, ...result.comparison, lineage, ...gates }));
  } else {
    const table = renderComparison(result.comparison, metricName, io.columns);
    const lineage = (["a", "b"] as const)
      .map((side) => `lineage ${side.toUpperCase()} (${result.comparison[side].program}): ${describeShare(shares[side])}`);
    const fit = (lines: string[]) => lines.map((line) => fitLines(line, io.columns));
    const notes = [...fit(lineage), ...fit(describeSideFailures(sides))];
    io.out([...fit(ab ? [describeAbRun(ab)] : []), table, ...notes].join("\n"));
  }
  return 0;
}

function tallyOf(rows: ResultRow[], program: string) {
  return tallyGateFailures(rows.filter((row) => (row.program || UNVERSIONED) === program));
}
