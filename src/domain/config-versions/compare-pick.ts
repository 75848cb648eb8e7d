// Which two versions `org compare` (and the report's table) compare, and each one's experiments and dollars.
import type { ResultRow } from "../experiments/results-table.js";
import type { Goal } from "../experiments/verdict.js";
import { selectExperiments } from "./compare-measures.js";
import { compareSamples, type Comparison, type ProgramSample } from "./compare-versions.js";
import type { ProgramHistoryRow } from "./version-history.js";
import { resolveVersion } from "./resolve-version.js";
import { UNVERSIONED } from "./version.js";

export type ComparePick = { kind: "picked"; a: string; b: string } | { kind: "refused"; code: string; reason: string };

/**
 * No ids: the last two versions by first use (`order`, as `org history` lists them). Ids resolve as `org program show`
 * resolves them, except that a version run but no longer saved still has its rows to compare, and "unversioned" names
 * the rows before versions.
 */
export function pickVersions(ids: readonly string[], order: readonly string[], saved: readonly string[]): ComparePick {
  if (ids.length === 0) {
    if (order.length === 0) return {
      kind: "refused",
      code: "compare-nothing",
      reason: "no program version has run yet — `org up` records the first; compare needs two",
    };
    if (order.length === 1) return {
      kind: "refused",
      code: "compare-one",
      reason: `only one program version (${order[0]}) has run — change org.yaml or a prompt and let the new version `
        + `run, then \`org compare\``,
    };
    return { kind: "picked", a: order[order.length - 2]!, b: order[order.length - 1]! };
  }
  if (ids.length !== 2) return {
    kind: "refused",
    code: "usage",
    reason: "give two versions (`org compare <A> <B>`) or none for the last two",
  };
  const versions: string[] = [];
  for (const id of ids) {
    if (id.trim().toLowerCase() === UNVERSIONED && order.includes(UNVERSIONED)) {
      versions.push(UNVERSIONED);
      continue;
    }
    const lookup = resolveVersion(
      id,
      [...new Set([...saved, ...order.filter((version) => version !== UNVERSIONED)])],
      order,
    );
    if (lookup.kind !== "found") return { kind: "refused", code: `program-${lookup.kind}`, reason: lookup.reason };
    versions.push(lookup.version);
  }
  if (versions[0] === versions[1]) return {
    kind: "refused",
    code: "compare-same",
    reason: `A and B are both ${versions[0]} — name two different versions (\`org history\` lists them)`,
  };
  return { kind: "picked", a: versions[0]!, b: versions[1]! };
}

/** A version's experiments and the org best before them from the rows; its dollars as `org history` attributes them. */
function sampleProgram(
  program: string, history: readonly ProgramHistoryRow[], rows: readonly ResultRow[], goal: Goal,
): ProgramSample {
  const usage = history.find((line) => line.program === program)?.usage;
  const unpriced = !usage || usage.replies === 0
    ? "no usage recorded while it ran"
    : usage.costUsd === null ? `unpriced (${usage.unpriced ?? "a model has no price"})` : undefined;
  return {
    program,
    ...selectExperiments(rows, program, goal),
    costUsd: unpriced ? null : usage!.costUsd,
    ...(unpriced ? { unpriced } : {}),
  };
}

/** The comparison `org compare` prints and `org report` tabulates, or why there is none. */
export function compareVersions(input: {
  ids: readonly string[]; history: readonly ProgramHistoryRow[]; rows: readonly ResultRow[]; saved: readonly string[];
  goal: Goal; random: () => number;
}): { kind: "compared"; comparison: Comparison } | Extract<ComparePick, { kind: "refused" }> {
  const pick = pickVersions(input.ids, input.history.map((line) => line.program), input.saved);
  if (pick.kind === "refused") return pick;
  // Side by side (an A/B run), neither starts from the other's keeps: each one's start is the
  // best of the rows without the other's.
  const apart = interleave(input.rows, pick.a, pick.b);
  const [a, b] = [[pick.a, pick.b], [pick.b, pick.a]].map(([program, other]) =>
    sampleProgram(
      program!,
      input.history,
      apart ? input.rows.filter((row) => programOf(row) !== other) : input.rows,
      input.goal,
    ));
  return { kind: "compared", comparison: compareSamples(a!, b!, input.goal, input.random) };
}

function programOf(row: ResultRow): string {
  return row.program || UNVERSIONED;
}

/**
 * Whether the two versions' rows interleave in results.tsv: they ran at the same time, as the
 * halves of an A/B run do.
 */
function interleave(rows: readonly ResultRow[], a: string, b: string): boolean {
  const indexes = (program: string) => rows.flatMap((row, index) => (programOf(row) === program ? [index] : []));
  const span = (program: string) => {
    const found = indexes(program);
    return [found[0] ?? -1, found.at(-1) ?? -1] as const;
  };
  const [[firstA, lastA], [firstB, lastB]] = [span(a), span(b)];
  return firstA >= 0 && firstB >= 0 && firstA < lastB && firstB < lastA;
}
