// `org traces`'s --since and --grep: checked here, each bad value with its fix.
import type { ExperimentTrace } from "./experiments.js";
import type { TraceEvent } from "./events.js";

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** --since as epoch milliseconds: a duration back from `now` (90s, 30m, 2h, 1d) or a time; else why not. */
export function parseSince(text: string, now: number): { at: number } | { error: string } {
  const duration = /^(\d+(?:\.\d+)?)([smhd])$/.exec(text.trim());
  if (duration) return { at: now - Number(duration[1]) * UNITS[duration[2]!]! };
  const at = /^\d{4}-\d\d-\d\d/.test(text.trim()) ? Date.parse(text) : NaN;
  if (!Number.isNaN(at)) return { at };
  const fix = "give one like 30m, 2h or 1d, or a time like 2026-12-05T04:00Z";
  return { error: `--since ${JSON.stringify(text)} is neither a duration nor a time — ${fix}` };
}

/** --grep as a regular expression; else why not. */
export function compileGrep(text: string): { pattern: RegExp } | { error: string } {
  try {
    return { pattern: new RegExp(text) };
  } catch (error) {
    const why = (error as Error).message.replace(/^Invalid regular expression: /, "");
    const fix = "escape a special character with \\, e.g. --grep 'lr\\('";
    return { error: `--grep ${JSON.stringify(text)} is not a regular expression (${why}) — ${fix}` };
  }
}

/** The text an event is searched and shown by. */
export function eventText(event: TraceEvent): string {
  return event.kind === "call" ? event.command : event.text;
}

/** The events at or after `since` whose text matches `pattern` (either left out: all). */
export function selectEvents(
  events: readonly TraceEvent[], { since, pattern }: { since?: number; pattern?: RegExp },
): TraceEvent[] {
  return events.filter((event) => (since === undefined || event.at >= since)
    && (!pattern || pattern.test(eventText(event))));
}

/** Experiments submitted (or, without a submit, judged) at or after `since`. */
export function selectSince(traces: readonly ExperimentTrace[], since: number | undefined): ExperimentTrace[] {
  if (since === undefined) return [...traces];
  return traces.filter((trace) => (trace.submit?.at ?? Date.parse(trace.result?.time ?? "")) >= since);
}

/** The experiment named by its id or by a commit prefix of at least 7 characters. */
export function findExperiment(traces: readonly ExperimentTrace[], name: string): ExperimentTrace | undefined {
  const commit = /^[0-9a-f]{7,40}$/.test(name);
  return traces.find((trace) => trace.result?.id === name || trace.submit?.id === name
    || (commit && (trace.result?.commit.startsWith(name)
      || (trace.submit?.commit !== undefined && name.startsWith(trace.submit.commit)))));
}
