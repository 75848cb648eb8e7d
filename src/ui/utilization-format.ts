import type { Utilization } from "../domain/experiments/utilization.js";
import { formatUptime } from "./uptime.js";

const percent = (ratio: number | null) => (ratio === null ? "-" : `${Math.round(ratio * 100)}%`);
// A CPU-only org's figure is over its verify.parallel slots, and says so: it is no GPU figure.
const label = (utilization: Utilization) => (utilization.unit === "gpu" ? "gpu" : "cpu slots");

/** `org status`'s header: "gpu 87% (last hour 93%)", or "cpu slots 50% (last hour 50%)" in a CPU-only org. */
export function formatUtilization(utilization: Utilization): string {
  return `${label(utilization)} ${percent(utilization.overall)} (last hour ${percent(utilization.lastHour)})`;
}

/** One line for `org results` and `org report`: both figures with what they are made of. */
export function describeUtilization(utilization: Utilization): string {
  const { gpus, unit } = utilization;
  const what = unit === "gpu" ? `${gpus} GPU${gpus === 1 ? "" : "s"}` : `${gpus} slot${gpus === 1 ? "" : "s"}, no GPUs`;
  const busy = formatUptime(utilization.busySeconds * 1000);
  return `utilization: ${label(utilization)} ${percent(utilization.overall)} since org `
    + `up ${formatUptime(utilization.wallSeconds * 1000)} ago (${what}; ${busy} of verify runs), `
    + `last hour ${percent(utilization.lastHour)}`;
}
