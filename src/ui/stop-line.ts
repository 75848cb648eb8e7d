import { relative } from "node:path";
import { describeFigures } from "../domain/experiments/stop.js";
import type { StopFile } from "../domain/experiments/stop-state.js";

/**
 * The status header's line for org.yaml's stop section: the distance to each condition, or
 * where the stop has got to.
 */
export function formatStopLine(file: StopFile | undefined, root: string): string | undefined {
  if (!file) return undefined;
  if (file.kind === "running") return file.distances.length > 0
    ? `stop: ${file.distances.map((distance) => distance.text).join(" · ")}`
    : undefined;
  if (file.phase === "grace") return `stopping: ${file.reason} — `
    + `agents write their progress until ${file.graceUntil.slice(11, 19)} UTC, then their programs stop`;
  const queued = file.cancel ? "queued experiments cancelled, confirmations finishing" : "queued experiments finishing";
  if (file.phase === "draining") return `stopping: ${file.reason} — agents stopped; ${queued}`;
  const report = file.report && "path" in file.report
    ? ` · report ${relative(root, file.report.path)}`
    : file.report ? ` · no report: ${file.report.error}` : "";
  return `stopped: ${file.reason} · ${describeFigures(file.figures)}${report} — to go on, `
    + `raise the limit in org.yaml or run \`org up --resume\``;
}
