/** What the last digest saw: when it went out and how many of the juniors' verdicts existed then. */
export interface StandupMark {
  at: string;
  verdicts: number;
}

export type StandupDecision =
  | { kind: "start"; reason: string }
  | { kind: "due"; reason: string }
  | { kind: "wait"; reason: string };

/**
 * A digest is due after `verdictsEvery` new verdicts, or after `everyMs` if at least one verdict landed;
 * a first look only starts the count, so a restarted daemon does not repeat the last digest.
 */
export function decideStandup(input: {
  now: Date; last: StandupMark | undefined; verdicts: number; everyMs: number; verdictsEvery: number;
}): StandupDecision {
  const { last, verdicts } = input;
  if (!last) return { kind: "start", reason: `counting from ${verdicts} verdicts` };
  // results.tsv started over (a new org in the same folder): count from zero.
  const fresh = verdicts >= last.verdicts ? verdicts - last.verdicts : verdicts;
  const plural = (n: number) => `${n} verdict${n === 1 ? "" : "s"}`;
  if (fresh >= input.verdictsEvery) return { kind: "due", reason: `${plural(fresh)} since the last standup` };
  const elapsed = input.now.getTime() - Date.parse(last.at);
  if (elapsed < input.everyMs) return {
    kind: "wait",
    reason: `${plural(fresh)} of ${input.verdictsEvery} and ${formatMinutes(elapsed)} `
      + `of ${formatMinutes(input.everyMs)} since the last standup`,
  };
  if (fresh === 0) return {
    kind: "wait",
    reason: `no verdict in the ${formatMinutes(elapsed)} since the last standup: nothing to report`,
  };
  return { kind: "due", reason: `${formatMinutes(elapsed)} and ${plural(fresh)} since the last standup` };
}

function formatMinutes(ms: number): string {
  return ms < 120_000 ? `${Math.round(ms / 1000)}s` : `${Math.round(ms / 60_000)}m`;
}
