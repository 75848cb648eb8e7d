// state/ab.json: an A/B run (`org up --ab other.yaml`) — which program each half runs and which agents are B's.
import { isFields, parseJsonText } from "../json-fields.js";

/** One half of an A/B run: its program version and its agents. */
export interface AbHalf {
  version: string;
  /** The file it came from, as given: org.yaml, or the path after --ab. */
  file: string;
  agents: string[];
}

/** Written by `org up --ab` before the daemon starts, removed by `org down`. */
export interface AbRun {
  at: string;
  a: AbHalf;
  b: AbHalf;
}

/**
 * B's agents and roles carry this prefix: both programs may name the same roles, and agent
 * names are branches and panes.
 */
export const B_PREFIX = "b-";

export function abRunPath(state: string): string {
  return `${state}/ab.json`;
}

export function parseAbRun(text: string | undefined): AbRun | undefined {
  const run = parseJsonText(text);
  return isAbRun(run) ? run : undefined;
}

function isAbRun(value: unknown): value is AbRun {
  return isFields(value) && typeof value.at === "string" && isHalf(value.a) && isHalf(value.b);
}

function isHalf(half: unknown): half is AbHalf {
  const value = half as Partial<AbHalf> | undefined;
  return typeof value?.version === "string" && typeof value.file === "string" && Array.isArray(value.agents);
}

/**
 * An A/B run as state/programs/ab-runs.jsonl keeps it after `org down`: when it ran and which
 * program each agent ran.
 */
export interface AbSpan {
  from: number;
  to: number | undefined;
  programs: Map<string, string>;
  /** Program B's version: its half keeps a best of its own. */
  b: string;
}

/**
 * ab-runs.jsonl: a run's state/ab.json as a line when it starts, `{"end": time}` when it ends;
 * a broken line is skipped.
 */
export function parseAbSpans(text: string): AbSpan[] {
  const spans: AbSpan[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    const end = (value as { end?: unknown }).end;
    const last = spans.at(-1);
    if (typeof end === "string") {
      if (last && last.to === undefined) last.to = Date.parse(end);
      continue;
    }
    const run = parseAbRun(line);
    if (!run) continue;
    const programs = new Map([
      ...run.a.agents.map((agent) => [agent, run.a.version] as const),
      ...run.b.agents.map((agent) => [agent, run.b.version] as const),
    ]);
    spans.push({ from: Date.parse(run.at), to: undefined, programs, b: run.b.version });
  }
  return spans;
}

/** Which frontier an agent builds on: "b" for B's half of an A/B run, undefined for the org's own (A's). */
export type Half = "b" | undefined;

export function findHalf(run: AbRun | undefined, agent: string): Half {
  return run?.b.agents.includes(agent) ? "b" : undefined;
}

/**
 * The branch a half's best is kept on: org/<name>/best, and during an A/B run
 * org/<name>/b-best for B (no agent name ends so).
 */
export function bestBranchOf(org: string, half: Half): string {
  return `org/${org}/${half === "b" ? "b-best" : "best"}`;
}

/**
 * The ref a half's best branch is a symbolic ref to under the sandbox (refs/frontier/<name>, refs/frontier-b/<name>
 * for B): outside the folder agents write, so only the verifier moves it, and its lock and reflog are out of reach.
 */
export function frontierRefOf(org: string, half: Half): string {
  return `refs/${half === "b" ? "frontier-b" : "frontier"}/${org}`;
}

/** The program an agent of the run belongs to; undefined for one in neither half (not an agent of the run). */
export function findAgentProgram(run: AbRun, agent: string): string | undefined {
  if (run.b.agents.includes(agent)) return run.b.version;
  return run.a.agents.includes(agent) ? run.a.version : undefined;
}

/**
 * The ledger entries an agent may be answered from: during an A/B run only its own half's, since the run began, so
 * neither half gets free answers from the other's runs (nor from runs before) and both start with the same memory.
 */
export function filterOwnHalf<T extends { agent: string; time: string }>(
  run: AbRun | undefined, agent: string, entries: readonly T[],
): T[] {
  if (!run) return [...entries];
  const half = run.b.agents.includes(agent);
  const since = Date.parse(run.at);
  return entries.filter((entry) => run.b.agents.includes(entry.agent) === half && Date.parse(entry.time) >= since);
}

/** `org status`'s line: an A/B run and both versions. */
export function describeAbRun(run: AbRun): string {
  return `A/B run since ${run.at}: A ${run.a.version} (${run.a.file}, ${run.a.agents.length} agents) `
    + `vs B ${run.b.version} (${run.b.file}, ${run.b.agents.length} agents, prefixed ${B_PREFIX}) — `
    + `\`org compare\` compares them`;
}
