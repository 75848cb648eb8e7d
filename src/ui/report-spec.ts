// The progress chart as a Vega-Lite spec: one spec renders both the HTML page and the SVG.
import type { TopLevelSpec } from "vega-lite";
import type { Goal } from "../domain/experiments/verdict.js";
import type { Progress, VersionMark } from "./report-points.js";

export type ProgressAxis = "index" | "time";

const CHART_SIZE = { width: 760, height: 380 };

export function buildProgressSpec(
  progress: Progress,
  opts: { title: string; metricName: string; goal: Goal; x: ProgressAxis; versions?: VersionMark[] },
): TopLevelSpec {
  const x = opts.x === "time"
    ? { field: "time", type: "temporal" as const, title: "time" }
    : { field: "n", type: "quantitative" as const, title: "experiment #", axis: { tickMinStep: 1 } };
  const y = {
    type: "quantitative" as const,
    title: `${opts.metricName} (${opts.goal === "minimize" ? "lower" : "higher"} is better)`,
    scale: { zero: false },
  };
  const color = { field: "agent", type: "nominal" as const, title: "agent", scale: { domain: progress.agents } };
  const tooltip = [
    { field: "description", type: "nominal" as const, title: "idea" },
    { field: "agent", type: "nominal" as const },
    { field: "status", type: "nominal" as const },
    { field: "metric", type: "quantitative" as const, title: opts.metricName, format: ".6f" },
    { field: "n", type: "quantitative" as const, title: "experiment" },
    { field: "commit", type: "nominal" as const },
  ];
  const kept = "datum.kept";
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    ...CHART_SIZE,
    background: "white",
    title: {
      text: opts.title,
      subtitle: "every experiment a point · kept: large, outlined · discarded: faint · ×: crash, "
        + "reject or failed gate · line: each agent's running best",
    },
    datasets: {
      steps: [...progress.steps],
      measured: [...progress.measured],
      failed: [...progress.failed],
      versions: [...(opts.versions ?? [])],
    },
    layer: [
      // Where each program version started (`org history`), so a change in pace can be read against it.
      ...(opts.versions?.length
        ? [
          {
            name: "versions",
            data: { name: "versions" },
            mark: { type: "rule" as const, strokeDash: [4, 3], color: "#888" },
            encoding: { x },
          },
          {
            name: "version_labels",
            data: { name: "versions" },
            mark: { type: "text" as const, align: "left" as const, dx: 3, dy: 10, fontSize: 10, color: "#555" },
            encoding: { x, y: { value: 0 }, text: { field: "version", type: "nominal" as const } },
          },
        ]
        : []),
      {
        name: "best",
        data: { name: "steps" },
        mark: { type: "line", interpolate: "step-after", strokeWidth: 2 },
        encoding: { x, y: { ...y, field: "best" }, color },
      },
      {
        name: "experiments",
        data: { name: "measured" },
        mark: { type: "point", filled: true, strokeWidth: 1.2 },
        encoding: {
          x, y: { ...y, field: "metric" }, color, tooltip,
          size: { condition: { test: kept, value: 90 }, value: 34 },
          opacity: { condition: { test: kept, value: 1 }, value: 0.5 },
          stroke: { condition: { test: kept, value: "#222" }, value: "transparent" },
        },
      },
      // Nothing was measured: drawn on the chart's worse edge, so a crash never reads as a good result.
      {
        name: "failures",
        data: { name: "failed" },
        mark: { type: "point", shape: "cross", filled: true, size: 60, opacity: 0.8 },
        encoding: { x, y: { value: opts.goal === "minimize" ? 0 : CHART_SIZE.height }, color, tooltip },
      },
    ],
  };
}
