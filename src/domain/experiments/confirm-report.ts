import { summarize } from "./noise.js";

/** What `org confirm` reports: the commit's runs next to the baseline's, and the gap in units of σ. */
export interface ConfirmReport {
  commit: string;
  agent: string;
  metric: string;
  runs: number[];
  mean: number;
  sd: number;
  baseline: { mean: number; sd: number; n: number } | undefined;
  sigma: number | undefined;
  /** (baseline − mean)/σ when minimizing, (mean − baseline)/σ when maximizing: positive is better. */
  sigmas: number | undefined;
  crashed?: string;
}

export function buildConfirmReport(input: {
  commit: string; agent: string; metric: string; goal: "minimize" | "maximize"; runs: number[];
  baseline: number[] | undefined; sigma: number | undefined; crashed?: string;
}): ConfirmReport {
  const { mean, sd } = summarize(input.runs);
  const baseline = input.baseline && input.baseline.length > 0 ? summarize(input.baseline) : undefined;
  const gap = baseline ? (input.goal === "minimize" ? baseline.mean - mean : mean - baseline.mean) : undefined;
  const sigmas = gap !== undefined && input.sigma ? gap / input.sigma : undefined;
  return {
    commit: input.commit, agent: input.agent, metric: input.metric, runs: input.runs, mean, sd, baseline,
    sigma: input.sigma, sigmas, ...(input.crashed ? { crashed: input.crashed } : {}),
  };
}

/** Two lines for people: the runs, then the comparison with the baseline. */
export function formatConfirmReport(report: ConfirmReport): string[] {
  const head = `${report.commit.slice(0, 7)} (${report.agent}): ${report.metric} ${report.mean.toFixed(6)} ± `
    + `${report.sd.toFixed(6)} over ${report.runs.length} runs`;
  if (report.crashed) return [head, `crashed: ${report.crashed}`];
  if (!report.baseline) return [head, "no baseline to compare with yet"];
  const { mean, sd, n } = report.baseline;
  const base = `baseline ${mean.toFixed(6)} ± ${sd.toFixed(6)} (n=${n})`;
  const sigma = report.sigmas === undefined
    ? "σ unknown"
    : `${report.sigmas >= 0 ? "+" : ""}${report.sigmas.toFixed(1)}σ vs baseline (σ ${report.sigma!.toFixed(6)})`;
  return [head, `${base} · ${sigma}`];
}
