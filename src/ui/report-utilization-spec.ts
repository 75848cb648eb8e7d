// The utilization plot under the progress chart: one bar per time bucket, the share of GPU (or
// CPU slot) time verify runs held.
import type { TopLevelSpec } from "vega-lite";
import type { Capacity, UtilizationPoint } from "../domain/experiments/utilization.js";
import { formatUptime } from "./uptime.js";

const CHART_SIZE = { width: 760, height: 170 };

export function buildUtilizationSpec(
  series: { bucketSeconds: number; points: UtilizationPoint[] },
  opts: { title: string; unit: Capacity["unit"]; gpus: number },
): TopLevelSpec {
  const what = opts.unit === "gpu"
    ? `${opts.gpus} GPU${opts.gpus === 1 ? "" : "s"}`
    : `${opts.gpus} CPU slot${opts.gpus === 1 ? "" : "s"} (no GPUs)`;
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    ...CHART_SIZE,
    background: "white",
    title: {
      text: opts.title,
      subtitle: `share of ${what} busy with verify runs, per ${formatUptime(series.bucketSeconds * 1000)} since org up`,
    },
    datasets: { buckets: [...series.points] },
    layer: [{
      name: "utilization",
      data: { name: "buckets" },
      mark: { type: "bar", color: "#4c78a8" },
      encoding: {
        x: { field: "start", type: "temporal", title: "time" },
        x2: { field: "end" },
        y: {
          field: "utilization",
          type: "quantitative",
          title: "busy",
          scale: { domain: [0, 1] },
          axis: { format: "%" },
        },
        // With x2 set, a bar is a range on both axes: without y2 it would be a line at its height.
        y2: { datum: 0 },
        tooltip: [
          { field: "start", type: "temporal", title: "from", format: "%H:%M" },
          { field: "end", type: "temporal", title: "to", format: "%H:%M" },
          { field: "utilization", type: "quantitative", title: "busy", format: ".0%" },
        ],
      },
    }],
  };
}
