// ORG_TRACE_TIMINGS for a bench: each traced phase's count, median and total, from the JSON lines org appended.
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { median } from "./lib.mjs";

/** Sets ORG_TRACE_TIMINGS to `file` (emptied) for the org processes a bench starts from now on, when BENCH_TRACE=1. */
export function startTrace(file) {
  if (process.env.BENCH_TRACE !== "1") return undefined;
  mkdirSync(dirname(file), { recursive: true });
  rmSync(file, { force: true });
  process.env.ORG_TRACE_TIMINGS = file;
  return file;
}

/** `{ "<scope> <phase>": { count, median_ms, total_ms } }`, slowest total first; tracing off again. */
export function summarizeTrace(file) {
  delete process.env.ORG_TRACE_TIMINGS;
  if (!file || !existsSync(file)) return undefined;
  const phases = new Map();
  for (const line of readFileSync(file, "utf8").split("\n").filter(Boolean)) {
    const { scope, phase, ms } = JSON.parse(line);
    const key = `${scope} ${phase}`;
    phases.set(key, [...(phases.get(key) ?? []), ms]);
  }
  const rows = [...phases].map(([key, values]) => [key, {
    count: values.length, median_ms: Number(median(values).toFixed(1)),
    total_ms: Math.round(values.reduce((sum, value) => sum + value, 0)),
  }]);
  return Object.fromEntries(rows.sort((a, b) => b[1].total_ms - a[1].total_ms));
}
