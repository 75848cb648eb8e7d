// An agent's timeline split per experiment: what it expected, ran and was told, beside the org's own verdict.
import type { ResultStatus } from "../experiments/results-table.js";
import type { TraceEvent } from "./events.js";
import { findVerdictSeen, isSubmitCommand, readSubmitAnswer, readSubmitMessage } from "./submit-command.js";

/** One results row as the verifier journaled it: what the org judged, whatever the agent says. */
export interface TracedResult {
  /** The experiment id `org submit` made, where the journal names it. */
  id?: string;
  agent: string;
  commit: string;
  status: ResultStatus;
  metric?: number;
  description: string;
  /** ISO time of the verdict. */
  time: string;
}

/** How many of the calls after a verdict are shown as what the agent did next. */
const NEXT_CALLS = 3;

/** One experiment: the org's verdict (when matched) and the agent's side of it (when its transcript holds it). */
export interface ExperimentTrace {
  result?: TracedResult;
  submit?: {
    at: number; command: string; message?: string; commit?: string; id?: string;
    /** What `org submit` printed; `seen`: where a queued experiment's verdict reached the agent later. */
    printed?: string; seen?: string;
  };
  /** The agent's last words before it submitted: its stated expectation. */
  expected?: string;
  /** Commands since the experiment before, the submit last. */
  commands: string[];
  /** After the verdict: its first words and commands, up to the next submit. */
  next?: { said?: string; commands: string[] };
  /** The transcript's events of this experiment, from after the one before through its verdict. */
  events: TraceEvent[];
  /** Set when the agent's side is missing: why the trace is unknown. */
  unknown?: string;
}

/**
 * Pairs each `org submit` in the timeline with the agent's row of results (by experiment id, then commit, then the
 * message of an unmatched row judged after it); rows no submit explains get `unknown(row)` as their reason.
 */
export function splitExperiments(
  events: readonly TraceEvent[], rows: readonly TracedResult[], unknown: (row: TracedResult) => string,
): ExperimentTrace[] {
  const unmatched = [...rows];
  const take = (test: (row: TracedResult) => boolean) => {
    const index = unmatched.findIndex(test);
    return index < 0 ? undefined : unmatched.splice(index, 1)[0];
  };
  const submits = events.flatMap((event, index) => (
    event.kind === "call" && isSubmitCommand(event.command) ? [index] : []
  ));
  const traces: ExperimentTrace[] = [];
  let start = 0;
  for (const [n, index] of submits.entries()) {
    const call = events[index] as Extract<TraceEvent, { kind: "call" }>;
    const end = submits[n + 1] ?? events.length;
    const answered = findResult(events, index, end, call.id);
    const answer = answered === undefined ? undefined : events[answered];
    const printed = answer?.kind === "result" ? answer.text : undefined;
    const message = readSubmitMessage(call.command);
    const { commit, id } = readSubmitAnswer(printed ?? "");
    const result = (id ? take((row) => row.id === id) : undefined)
      ?? (commit ? take((row) => row.commit.startsWith(commit)) : undefined)
      ?? (message !== undefined && commit === undefined
        ? take((row) => row.description === message && Date.parse(row.time) >= call.at)
        : undefined);
    const stop = answered ?? index;
    const segment = events.slice(start, stop + 1);
    const before = events.slice(start, index);
    // Queued with --no-wait: the verdict reached the agent later; what it did next is what followed that.
    const queued = commit !== undefined && printed?.startsWith("queued ")
      ? findVerdictSeen(events, stop + 1, commit, id)
      : undefined;
    const seen = queued === undefined ? undefined : events[queued];
    const after = queued === undefined
      ? events.slice(stop + 1, end)
      : events.slice(queued + 1, submits.find((at) => at > queued) ?? events.length);
    traces.push({
      ...(result ? { result } : {}),
      submit: {
        at: call.at, command: call.command, ...(message !== undefined ? { message } : {}),
        ...(commit ? { commit } : {}), ...(id ? { id } : {}), ...(printed !== undefined ? { printed } : {}),
        ...(seen && seen.kind !== "call" ? { seen: seen.text.slice(Math.max(0, seen.text.indexOf("verdict "))) } : {}),
      },
      ...lastSaid(before),
      commands: listCommands(segment),
      next: { ...firstSaid(after), commands: listCommands(after).slice(0, NEXT_CALLS) },
      events: seen ? [...segment, seen] : segment,
    });
    start = stop + 1;
  }
  for (const row of unmatched) traces.push({ result: row, commands: [], events: [], unknown: unknown(row) });
  return traces.sort((a, b) => timeOf(a) - timeOf(b));
}

/** The experiments the org discarded or that crashed: where the agent's expectation and the verdict parted. */
export function listDiverged(traces: readonly ExperimentTrace[]): ExperimentTrace[] {
  return traces.filter((trace) => trace.result?.status === "discard" || trace.result?.status === "crash");
}

// The submit's own output: the result with its call's id, else the first result after it.
function listCommands(events: readonly TraceEvent[]): string[] {
  return events.flatMap((event) => (event.kind === "call" ? [event.command] : []));
}

function findResult(
  events: readonly TraceEvent[], from: number, end: number, id: string | undefined,
): number | undefined {
  for (let index = from + 1; index < end; index++) {
    const event = events[index]!;
    if (event.kind === "result" && (id === undefined || event.id === undefined || event.id === id)) return index;
  }
  return undefined;
}

function lastSaid(events: readonly TraceEvent[]): { expected?: string } {
  const said = [...events].reverse().find((event) => event.kind === "assistant");
  return said?.kind === "assistant" ? { expected: said.text } : {};
}

function firstSaid(events: readonly TraceEvent[]): { said?: string } {
  const said = events.find((event) => event.kind === "assistant");
  return said?.kind === "assistant" ? { said: said.text } : {};
}

function timeOf(trace: ExperimentTrace): number {
  if (trace.submit) return trace.submit.at;
  const at = Date.parse(trace.result?.time ?? "");
  return Number.isNaN(at) ? 0 : at;
}
