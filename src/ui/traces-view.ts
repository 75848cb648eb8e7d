// `org traces` as text: per experiment what the agent expected, ran, was told and did next; the transcript is the
// agent's own writing, so every piece of it is cleaned of terminal controls before it is printed.
import { eventText, type ExperimentTrace, type TraceEvent } from "../domain/traces/index.js";
import { cleanLine, cleanText } from "../domain/safe-text.js";
import { cutToWidth } from "./text-width.js";

/** A line of the agent's text in a summary is cut to this many characters. */
const SUMMARY_CHARS = 300;
const INDENT = " ".repeat(9);
const NOT_PRINTED = "(org submit's output is not in the transcript)";
const NOTHING_NEXT = "(nothing after it in the transcript)";
const MARKS: Record<TraceEvent["kind"], string> = { user: "told", assistant: "said", call: "$", result: "→" };

/** One block per experiment, oldest first; `who` names the agent on each header (the diverged list). */
export function renderExperiments(
  traces: readonly ExperimentTrace[], opts: { who?: boolean; width?: number } = {},
): string {
  const lines = traces.flatMap((trace) => [describeHeader(trace, opts.who === true), ...describeBody(trace), ""]);
  return fit(lines.slice(0, -1), opts.width);
}

/** One experiment whole: its header, then every event of its transcript, then what the agent did next. */
export function renderExperiment(trace: ExperimentTrace, width?: number): string {
  const lines = [describeHeader(trace, true)];
  if (trace.unknown) lines.push(`  trace unknown: ${cleanLine(trace.unknown)}`);
  for (const event of trace.events) lines.push(...describeEvent(event));
  if (trace.next?.said !== undefined || (trace.next?.commands.length ?? 0) > 0) lines.push(...describeNext(trace));
  return fit(lines, width);
}

/** Matching events, one line each: time, agent, what kind, the text on one line. */
export function renderMatches(matches: readonly { agent: string; event: TraceEvent }[], width?: number): string {
  const lines = matches.map(({ agent, event }) => {
    return `${clock(event.at)} ${agent} ${MARKS[event.kind]} ${summarize(eventText(event))}`;
  });
  return fit(lines, width);
}

function describeHeader(trace: ExperimentTrace, who: boolean): string {
  const { result, submit } = trace;
  const at = clock(submit?.at ?? Date.parse(result?.time ?? ""));
  const commit = (result?.commit ?? submit?.commit ?? "-------").slice(0, 7);
  const metric = result?.metric !== undefined ? ` ${result.metric.toFixed(6)}` : "";
  const verdict = result ? `${result.status}${metric}` : "no verdict in results";
  const what = cleanLine(result?.description ?? submit?.message ?? "");
  const id = result?.id ?? submit?.id;
  const agent = who && result ? ` ${result.agent}` : "";
  return `── ${at}${agent} ${commit} ${verdict} "${what}"${id ? ` · ${id}` : ""}`;
}

function describeBody(trace: ExperimentTrace): string[] {
  if (trace.unknown) return [`  trace unknown: ${cleanLine(trace.unknown)}`];
  const expected = trace.expected !== undefined ? summarize(trace.expected) : "(said nothing before it submitted)";
  const lines = [`  expected: ${expected}`];
  if (trace.submit?.message !== undefined) lines.push(`  message:  ${summarize(trace.submit.message)}`);
  trace.commands.forEach((command, index) => {
    lines.push(`  ${index === 0 ? "ran:     " : INDENT} $ ${summarize(command)}`);
  });
  const printed = trace.submit?.seen ?? trace.submit?.printed;
  const seen = printed !== undefined ? summarize(firstLines(printed)) : NOT_PRINTED;
  lines.push(`  verdict:  ${seen}`);
  lines.push(...describeNext(trace));
  return lines;
}

function describeNext(trace: ExperimentTrace): string[] {
  const next = trace.next;
  if (!next || (next.said === undefined && next.commands.length === 0)) return [`  next:     ${NOTHING_NEXT}`];
  const said = next.said !== undefined ? [summarize(next.said)] : [];
  const lines = [...said, ...next.commands.map((command) => `$ ${summarize(command)}`)];
  return lines.map((line, index) => `  ${index === 0 ? "next:    " : INDENT} ${line}`);
}

function describeEvent(event: TraceEvent): string[] {
  const [first = "", ...rest] = cleanText(eventText(event)).split("\n");
  const head = `${clock(event.at)} ${MARKS[event.kind].padEnd(4)} `;
  return [`${head}${first}`, ...rest.map((line) => `${" ".repeat(head.length)}${line}`)];
}

// The first two lines of org submit's answer hold the metric, the best, the delta and the verdict, and the reason.
function firstLines(text: string): string {
  return text.split("\n").filter((line) => line.trim() !== "").slice(0, 3).join(" / ");
}

function summarize(text: string): string {
  const line = cleanLine(text).trim();
  return line.length <= SUMMARY_CHARS ? line : `${line.slice(0, SUMMARY_CHARS)}…`;
}

function clock(at: number): string {
  return Number.isNaN(at) || at <= 0 ? "(no time)" : new Date(at).toISOString().slice(0, 19).replace("T", " ");
}

function fit(lines: readonly string[], width: number | undefined): string {
  return (width === undefined ? lines : lines.map((line) => cutToWidth(line, width))).join("\n");
}
