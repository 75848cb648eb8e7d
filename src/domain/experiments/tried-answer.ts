// Before a candidate runs: a change already judged on the same tree, or no change at all, is answered without a run.
import { gateColumnOf, type ResultRow, type ResultStatus } from "./results-table.js";
import { originalOf, type ChangeKey, type TriedEntry } from "./tried-ledger.js";
import { JUDGE_GATE, type Verdict } from "./verdict.js";

/** The candidate's change against the commit it is judged on, as git read it. */
export type Change = { kind: "change"; key: ChangeKey } | { kind: "empty"; whitespace: boolean };

export type TriedDecision =
  | { kind: "run"; reason: string }
  | {
    kind: "answer"; verdict: Verdict; status: ResultStatus; description: string; original?: TriedEntry; reason: string;
  };

/**
 * Answer from the ledger or run. `recordedAt` is the time of the row the candidate already has (a daemon killed
 * before its ledger entry): only an entry written before it can have answered it.
 */
export function decideTried(input: {
  commit: string;
  agent: string;
  description: string;
  change: Change;
  entries: TriedEntry[];
  best: { metric: number } | null;
  metricName: string;
  goal: "minimize" | "maximize";
  recordedAt?: string;
  /**
   * The noise band k·σ: a discard whose delta was within it is answered as inconclusive; absent (σ unknown or
   * 0): no band.
   */
  noise?: number;
}): TriedDecision {
  const { change, commit } = input;
  if (change.kind === "empty") {
    const what = change.whitespace ? "changes only whitespace or blank lines" : "changes nothing";
    const reason = `reject: empty change: ${commit.slice(0, 7)} ${what} against the commit it is judged on — make a `
      + `real change, then submit it`;
    return {
      kind: "answer", verdict: { kind: "reject", reason }, status: "reject", description: input.description, reason,
    };
  }
  // The agent's own entry for this very commit is its record, not an original; another agent's same commit is one.
  const matching = input.entries.filter((entry) => !(entry.commit === commit && entry.agent === input.agent)
    && sameKey(entry.change, change.key)
    && (input.recordedAt === undefined || entry.time < input.recordedAt));
  // The latest judgment answers (several exist where verify.ledger was off for a while): the most evidence
  // is behind it.
  const original = matching.filter((entry) => entry.duplicateOf === undefined).at(-1) ?? matching[0];
  if (!original) return { kind: "run", reason: "a change not judged on this tree before" };
  const source = originalOf(original);
  // The judge failing (a timeout, a malformed answer) says nothing about the change: it is judged again.
  const judgeFailed = source.status === "fail" && source.gate === JUDGE_GATE;
  if (judgeFailed) return { kind: "run", reason: `${source.commit.slice(0, 7)} met a judge-error` };
  const measured = source.status === "keep" || source.status === "discard";
  // A hand-edited entry that lost its metric cannot stand for a measured verdict.
  if (measured && source.metric === undefined) return {
    kind: "run", reason: `${source.commit.slice(0, 7)}'s entry has no metric`,
  };
  const result = measured ? `${source.status}, ${input.metricName} ${source.metric!.toFixed(6)}`
    : source.status === "fail" ? `fail at gate ${source.gate ?? "unknown"}` : source.status;
  // A discard inside the noise band proved nothing either way: say so, rather than spend a run on the
  // same change again.
  const inconclusive = isWithinNoise(original, input.noise)
    ? ` — within the noise (|Δ| ${Math.abs(original.delta!).toPrecision(3)} ≤ k·σ ${input.noise!.toPrecision(3)}): `
      + `inconclusive, not proof that it does not help; try it together with another change`
    : "";
  const detail = source.status === "keep"
    ? ` — it is kept on ${source.agent}'s branch: merge ${source.commit.slice(0, 7)} to build on it`
    : inconclusive;
  const saved = `not run again (${source.seconds.toFixed(1)}s of GPU time saved; \`org tried\` lists every idea tried)`;
  // The very commit another agent kept (a merge that fast-forwarded onto it): adopting a keep is building on it,
  // not a repeat.
  const better = (metric: number) => input.best === null || (input.goal === "minimize"
    ? metric < input.best.metric
    : metric > input.best.metric);
  if (source.status === "keep" && source.commit === commit && better(source.metric!)) {
    const reason = `keep: adopted ${commit.slice(0, 7)}, kept by ${source.agent} with ${input.metricName} `
      + `${source.metric!.toFixed(6)}; ${saved}`;
    const verdict: Verdict = {
      kind: "keep", metric: source.metric!, delta: source.metric! - (input.best?.metric ?? source.metric!), reason,
    };
    return {
      kind: "answer", verdict, status: "keep",
      description: `adopt ${commit.slice(0, 7)} kept by ${source.agent}: ${source.description}`, original, reason,
    };
  }
  // A keep is the original agent's: for this agent it is a change already known, so its branch goes back as
  // for a discard.
  const status: ResultStatus = source.status === "keep" ? "discard" : source.status;
  const reason = `${status}: already tried as ${source.commit.slice(0, 7)} by ${source.agent}: ${result}${detail}; `
    + `${saved}`;
  const verdict: Verdict = measured
    ? {
      kind: "discard", metric: source.metric!, delta: source.metric! - (input.best?.metric ?? source.metric!), reason,
    }
    : source.status === "fail" ? { kind: "fail", gate: source.gate ?? "", reason }
    : { kind: source.status as "crash" | "reject", reason };
  return {
    kind: "answer", verdict, status,
    description: `duplicate of ${source.commit.slice(0, 7)} by ${source.agent}: ${source.description}`, original,
    reason,
  };
}

/** The results row of an answer: no run, so 0 seconds and the original's metric; every extra column empty. */
export function buildAnsweredRow(input: {
  commit: string; agent: string; gpu: number | null; time: string; extras: string[];
  decision: Extract<TriedDecision, { kind: "answer" }>;
  /** verify.gates is set: the row has a gate column. */
  gates?: boolean;
}): ResultRow {
  const { verdict } = input.decision;
  const gate = gateColumnOf(verdict, input.gates ?? false);
  return {
    ...(gate === undefined ? {} : { gate }),
    commit: input.commit, metric: verdict.kind === "discard" || verdict.kind === "keep" ? verdict.metric : undefined,
    memoryGb: undefined, status: input.decision.status,
    description: input.decision.description, agent: input.agent, gpu: input.gpu, seconds: 0, time: input.time,
    extras: Object.fromEntries(input.extras.map((name) => [name, undefined])),
  };
}

function isWithinNoise(entry: TriedEntry, noise: number | undefined): boolean {
  return noise !== undefined && noise > 0 && entry.status === "discard" && entry.delta !== undefined
    && Math.abs(entry.delta) <= noise;
}

function sameKey(a: ChangeKey | undefined, b: ChangeKey): boolean {
  return a !== undefined && a.patchId === b.patchId && a.tree === b.tree;
}
