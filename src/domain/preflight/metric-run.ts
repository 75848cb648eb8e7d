// What one verify run of the base says about verify.metric.pattern: matched with a value, or why not and a fix.
import { parseMetric } from "../experiments/metric.js";

export type MetricReading =
  | { kind: "matched"; value: number; line: string }
  /** The last matching line's capture is no finite number (nan, inf, an empty group). */
  | { kind: "not-a-number"; line: string }
  /** No line matched; `proposal` is a pattern that matches a `name: number` line of the log, when one is there. */
  | { kind: "unmatched"; tail: string[]; proposal?: { pattern: string; line: string; value: number } };

const TAIL = 10;
const LINE_MAX = 200;
// `loss: 1.339`, `val_bpb = 0.98`, `  acc:0.7`: a name, a colon or equals sign, one number and nothing after it.
const NAME_VALUE = /^(\s*)([A-Za-z_][\w./-]*)(\s*[:=]\s*)([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*$/;

/**
 * Reads the run log as the verifier does (parseMetric: the last matching line wins, per line). `anyName`: a proposal
 * may read a line of another name (the metric, printed under a name of its own); a budget's must name it.
 */
export function readMetricRun(log: string, metric: { name: string; pattern: string }, anyName = true): MetricReading {
  const regex = new RegExp(metric.pattern, "m");
  const lines = log.split(/\r?\n/);
  const matching = lines.filter((line) => regex.test(line));
  const value = parseMetric(log, metric.pattern);
  const last = matching[matching.length - 1];
  if (last !== undefined) {
    const line = clip(last);
    return value === undefined ? { kind: "not-a-number", line } : { kind: "matched", value, line };
  }
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === "") lines.pop();
  const tail = lines.slice(-TAIL).map(clip);
  const proposal = proposePattern(lines, metric.name, log, anyName);
  return proposal ? { kind: "unmatched", tail, proposal } : { kind: "unmatched", tail };
}

/** A pattern for the last `name: number` line, one whose name holds the metric's first; checked on the log. */
function proposePattern(
  lines: readonly string[], metricName: string, log: string, anyName: boolean,
): { pattern: string; line: string; value: number } | undefined {
  const candidates = lines.map((line) => ({ line, match: NAME_VALUE.exec(line) }))
    .filter((entry) => entry.match !== null).reverse();
  const wanted = metricName.toLowerCase();
  const named = candidates.find((entry) => entry.match![2]!.toLowerCase().includes(wanted));
  const chosen = named ?? (anyName ? candidates[0] : undefined);
  if (!chosen) return undefined;
  const [, indent, name, separator, number] = chosen.match!;
  const lead = indent ? "^\\s*" : "^";
  const between = separator!.includes("=") ? "\\s*=\\s*" : ":\\s*";
  const digits = /^[0-9.]+$/.test(number!) ? "[0-9.]+" : "[-+0-9.eE]+";
  const pattern = `${lead}${escapeRegExp(name!)}${between}(${digits})`;
  const value = parseMetric(log, pattern);
  return value === undefined ? undefined : { pattern, line: clip(chosen.line), value };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function clip(line: string): string {
  return line.length > LINE_MAX ? `${line.slice(0, LINE_MAX - 1)}…` : line;
}
