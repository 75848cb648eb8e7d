// `org compare` and the report's table: each measure for A and B with its 95 % interval, B − A, and what it says.
import {
  DIFF_LEVEL, formatLevel, RESAMPLES, type Comparison, type Estimate, type MeasureComparison, type MeasureName,
} from "../domain/config-versions/compare-versions.js";
import { renderTable } from "./fit-table.js";
import { fitLines } from "./wrap-text.js";
import { formatUsd } from "./usage-format.js";

const LABELS: Record<MeasureName, string> = {
  improvementPerGpuHour: "best gain / GPU-h",
  improvementPerUsd: "best gain / $",
  keepRate: "keep rate",
  crashRate: "crash rate",
  toFirstKeep: "expts to 1st keep",
};

/** How the numbers are made, under the table and in the report. */
export const COMPARE_METHOD = `95 % percentile bootstrap (B − A at ${formatLevel(DIFF_LEVEL)}, `
  + `so the five measures together name a false winner at most 5 % of the time): `
  + `each version's experiments (baselines left out) resampled ${RESAMPLES} times (seeded), kept in time order; `
  + `best gain is the sum of what each of its keeps moved the org best by when it ran (a resample sums the gains it `
  + `drew), over its GPU-hours (results seconds) or its $ (replies while it ran, held fixed); `
  + `a side with no keep yet has no expts to 1st keep (none yet), and is named the slower only when that many without `
  + `one would be rare even at the low end of the other's keep rate; a later version starts from a better best, `
  + `so diminishing returns favour the earlier one on best gain`;

/** The header and one row of cells per measure, for the terminal table and the HTML one. */
export function buildComparisonCells(comparison: Comparison): { header: string[]; cells: string[][] } {
  const header = [
    "MEASURE",
    `A ${comparison.a.program}`,
    `B ${comparison.b.program}`,
    `B − A (${formatLevel(comparison.diffLevel)})`,
    "VERDICT",
  ];
  const cells = comparison.measures.map((line) =>
    [
      LABELS[line.measure],
      formatEstimate(line, line.a),
      formatEstimate(line, line.b),
      formatEstimate(line, line.diff),
      describeVerdict(line),
    ]);
  return { header, cells };
}

/**
 * The table with what each side ran and why each measure says what it says. Fitted to `width`, a terminal's, an
 * interval goes under its value and the notes wrap.
 */
export function renderComparison(comparison: Comparison, metricName: string, width?: number): string {
  const { header, cells } = buildComparisonCells(comparison);
  const [sides, ...notes] = describeComparison(comparison, metricName);
  // "0.01 [0.007, 0.013]" breaks before its interval, never inside it.
  const parts = cells.map((row) => row.map((cell) => cell.split(/ (?=\[)/)));
  const table = renderTable(header, parts, { width, wrap: header });
  return [fitLines(sides!, width), table, ...notes.map((note) => fitLines(note, width))].join("\n");
}

/** What each side ran (first), then versions with nothing to measure, each measure's reason, and the method. */
export function describeComparison(comparison: Comparison, metricName: string): string[] {
  const side = (name: string, one: Comparison["a"]) =>
    `${name} = ${one.program}: ${one.experiments} `
      + `experiment${one.experiments === 1 ? "" : "s"}, ${one.gpuHours.toFixed(2)} `
      + `GPU-h, ${one.costUsd === null ? "unpriced" : formatUsd(one.costUsd)}`;
  const empty = [comparison.a, comparison.b].filter((one) => one.experiments === 0)
    .map((one) => `${one.program} has no experiments: nothing to measure, no intervals`);
  const reasons = [...new Set(comparison.measures.map((line) => `${LABELS[line.measure]}: ${line.verdict.reason}`))];
  const few = [comparison.a, comparison.b].some((one) => one.experiments < comparison.minExperiments);
  // The minimum is named only where a side is under it: stated always, it read as a claim about sides of 131 and 37.
  const minimum = few ? `; a side with fewer than ${comparison.minExperiments} experiments names no winner` : "";
  const sides = `${side("A", comparison.a)}\n${side("B", comparison.b)}`;
  return [sides, ...empty, ...reasons, `best gain is in ${metricName}${minimum}`, COMPARE_METHOD];
}

function describeVerdict(line: MeasureComparison): string {
  const verdict = line.verdict;
  if (verdict.kind === "better") return `${verdict.program} better`;
  return { unclear: "can't tell", "too-few": "too few experiments", unpriced: "unpriced" }[verdict.kind];
}

/** `0.0123 [0.0040, 0.0210]`; rates as percentages; `-` where there is no value. */
function formatEstimate(line: MeasureComparison, estimate: Estimate): string {
  const show = (value: number) =>
    (line.measure === "keepRate" || line.measure === "crashRate"
      ? `${(value * 100).toFixed(1)}%`
      : line.measure === "toFirstKeep" ? String(Number(value.toFixed(1))) : String(Number(value.toPrecision(3))));
  if (estimate.value === undefined) return line.measure === "improvementPerUsd" && line.verdict.kind === "unpriced"
    ? "unpriced"
    : line.measure === "toFirstKeep" ? "none yet" : "-";
  return estimate.interval
    ? `${show(estimate.value)} [${show(estimate.interval[0])}, ${show(estimate.interval[1])}]`
    : show(estimate.value);
}
