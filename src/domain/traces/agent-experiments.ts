// Each agent's experiments beside its transcript, and the org's diverged ones: where the trace is unknown, why.
import { classifyRow } from "../experiments/row-kind.js";
import { STACK_AGENT } from "../experiments/stack.js";
import type { AgentTrace } from "./events.js";
import { listDiverged, splitExperiments, type ExperimentTrace, type TracedResult } from "./experiments.js";

/** An agent's experiments, oldest first: every row of its own (not its baseline), every submit its transcript holds. */
export function traceExperiments(agent: string, trace: AgentTrace, rows: readonly TracedResult[]): ExperimentTrace[] {
  const own = rows.filter((row) => row.agent === agent && classifyRow(row) !== "baseline");
  if (trace.kind === "none") {
    const unknown = `${agent} has no transcript: ${trace.why}`;
    return own.map((row) => ({ result: row, commands: [], events: [], unknown }));
  }
  return splitExperiments(trace.events, own, (row) => explainUnknown(trace, row));
}

/** Every discard and crash of the org, oldest first, each with the agent's side where its transcript holds it. */
export function traceDiverged(
  traces: ReadonlyMap<string, AgentTrace>, rows: readonly TracedResult[],
): ExperimentTrace[] {
  const found = [...traces].flatMap(([agent, trace]) => listDiverged(traceExperiments(agent, trace, rows)));
  const others = listDiverged(rows.filter((row) => !traces.has(row.agent)).map((row) => ({
    result: row, commands: [], events: [],
    unknown: row.agent === STACK_AGENT
      ? "a stack is the verifier's own experiment: no agent's transcript holds it"
      : `${row.agent} is no agent of this org now`,
  })));
  return [...found, ...others].sort((a, b) => Date.parse(a.result!.time) - Date.parse(b.result!.time));
}

function explainUnknown(trace: Extract<AgentTrace, { kind: "read" }>, row: TracedResult): string {
  const [first, ...more] = trace.problems;
  if (first) return `${first}${more.length > 0 ? ` (and ${more.length} more)` : ""}`;
  const start = trace.events[0]?.at;
  if (start === undefined) return `${trace.cli}'s transcript holds nothing (none written, or removed)`;
  const begins = new Date(start).toISOString();
  if (Date.parse(row.time) < start) return `${trace.cli}'s transcript begins at ${begins}, after this verdict`;
  return `no \`org submit\` of ${row.commit.slice(0, 7)} in ${trace.cli}'s transcript`;
}
