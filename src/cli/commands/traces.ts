import { OrgError } from "../../domain/errors.js";
import { formatJson } from "../../domain/safe-text.js";
import {
  compileGrep, findExperiment, parseSince, selectEvents, selectSince, traceDiverged, traceExperiments,
  type AgentTrace, type ExperimentTrace,
} from "../../domain/traces/index.js";
import { loadTraces } from "../../flows/views/transcripts-view.js";
import { renderExperiment, renderExperiments, renderMatches } from "../../ui/traces-view.js";
import type { Io } from "../io.js";

export interface TracesOptions {
  root: string;
  agent?: string;
  experiment?: string;
  grep?: string;
  since?: string;
  diverged: boolean;
  json: boolean;
}

type Filter = { since?: number; pattern?: RegExp };

/** `org traces`: an agent's CLI transcript per experiment, the org's diverged experiments, or a search of them all. */
export async function runTraces(opts: TracesOptions, io: Io): Promise<number> {
  const filter = checkFilters(opts);
  if (!opts.agent && !opts.diverged && !opts.grep && !opts.experiment) {
    const example = "e.g. `org traces researcher-1`";
    throw new OrgError(`name an agent, or ask for --diverged or --grep <regex> — ${example}`, "usage");
  }
  const { agent, rows, traces } = await loadTraces(opts.root, opts);
  if (opts.diverged) return printDiverged(traceDiverged(traces, rows), filter, opts.json, io);
  if (!agent) return printMatches(traces, filter, opts.json, io);
  const trace = traces.get(agent)!;
  if (trace.kind === "none") {
    throw new OrgError(`${agent} has no transcript: ${trace.why}${insteadOf(trace, agent)}`, "no-transcript");
  }
  for (const problem of trace.problems) io.err(`org: ${agent}'s transcript: ${problem}`);
  const experiments = traceExperiments(agent, trace, rows);
  if (opts.experiment) {
    const found = findExperiment(experiments, opts.experiment);
    const list = `\`org traces ${agent}\` lists them, each with its id`;
    if (!found) throw new OrgError(`no experiment "${opts.experiment}" of ${agent} — ${list}`, "unknown-experiment");
    const within = new Map([[agent, { ...trace, events: found.events }]]);
    if (filter.pattern) return printMatches(within, filter, opts.json, io);
    io.out(opts.json ? formatJson(found) : renderExperiment(found, io.columns));
    return 0;
  }
  if (filter.pattern) return printMatches(traces, filter, opts.json, io);
  const shown = selectSince(experiments, filter.since);
  const none = `${agent} submitted nothing yet (${trace.events.length} events in its ${trace.cli} transcript)`;
  if (opts.json) io.out(formatJson(shown.map(withoutEvents)));
  else io.out(shown.length > 0 ? renderExperiments(shown, { width: io.columns }) : none);
  return 0;
}

function checkFilters(opts: TracesOptions): Filter {
  const since = opts.since === undefined ? undefined : parseSince(opts.since, Date.now());
  if (since && "error" in since) throw new OrgError(since.error, "usage");
  const grep = opts.grep === undefined ? undefined : compileGrep(opts.grep);
  if (grep && "error" in grep) throw new OrgError(grep.error, "usage");
  return { ...(since ? { since: since.at } : {}), ...(grep ? { pattern: grep.pattern } : {}) };
}

function printDiverged(diverged: ExperimentTrace[], filter: Filter, json: boolean, io: Io): number {
  const recent = selectSince(diverged, filter.since);
  const shown = filter.pattern ? recent.filter((trace) => selectEvents(trace.events, filter).length > 0) : recent;
  if (json) io.out(formatJson(shown.map(withoutEvents)));
  else if (shown.length === 0) io.out("no discards or crashes yet");
  else io.out(renderExperiments(shown, { who: true, width: io.columns }));
  return 0;
}

function printMatches(traces: ReadonlyMap<string, AgentTrace>, filter: Filter, json: boolean, io: Io): number {
  const matches = [...traces].flatMap(([agent, trace]) => {
    if (trace.kind === "none") io.err(`org: ${agent} has no transcript: ${trace.why}`);
    return trace.kind === "none" ? [] : selectEvents(trace.events, filter).map((event) => ({ agent, event }));
  }).sort((a, b) => a.event.at - b.event.at);
  if (json) io.out(formatJson(matches));
  else io.out(matches.length > 0 ? renderMatches(matches, io.columns) : "no match in any transcript");
  return 0;
}

function insteadOf(trace: Extract<AgentTrace, { kind: "none" }>, agent: string): string {
  const logs = `\`org logs ${agent}\``;
  if (trace.why.startsWith("a built-in")) return ` — what it tried is in \`org tried\`, what it printed in ${logs}`;
  return ` — \`org logs ${agent}\` shows its pane`;
}

function withoutEvents({ events: _events, ...trace }: ExperimentTrace): Omit<ExperimentTrace, "events"> {
  return trace;
}
