// What must hold after any fault, as a pure function of what was read from state/ and git: nothing is lost or doubled.

/** One row of results.tsv, as far as the invariants care. */
export interface RowFact {
  commit: string;
  status: string;
  description: string;
  agent: string;
}

/** A verdict file (state/verdicts/<id>.json): the experiment it answered. */
export interface VerdictFact {
  id: string;
  agent: string;
  commit: string;
  description: string;
  verdict: string;
}

export interface QueuedFact {
  id: string;
  agent: string;
  commit: string;
}

export interface BranchFact {
  agent: string;
  head: string;
  /** Commits on the branch that the base does not have (git rev-list head ^base), newest first. */
  commits: string[];
}

export interface OrgFacts {
  baseCommit: string;
  rows: RowFact[];
  verdicts: VerdictFact[];
  /** Ids of runs that started: state/runs/<id>.log (repeats as <id>-<n>.log count once). */
  runs: string[];
  /** Requests still waiting in state/queue. */
  queued: QueuedFact[];
  branches: BranchFact[];
  /** Processes of ours (or a tmux server on our socket) still alive after `org down`: a description each. */
  leftovers: string[];
}

const short = (sha: string) => sha.slice(0, 7);
const sameCommit = (a: string, b: string) => a.startsWith(short(b)) || b.startsWith(short(a));

/** Every broken invariant, as a sentence; [] when nothing was lost, doubled or left behind. */
export function checkInvariants(facts: OrgFacts): string[] {
  const problems: string[] = [];
  for (const verdict of facts.verdicts) {
    const rows = rowsOf(facts, verdict);
    if (rows.length !== 1) problems.push(`experiment ${verdict.id} has ${rows.length} rows in results.tsv, not 1`);
  }
  for (const row of facts.rows) {
    const answered = facts.verdicts.some(
      (verdict) => verdict.agent === row.agent && sameCommit(row.commit, verdict.commit),
    );
    // A daemon killed between the row and the verdict leaves the request queued: the next one answers it from the row.
    const pending = facts.queued.some(
      (request) => request.agent === row.agent && sameCommit(request.commit, row.commit),
    );
    if (!answered && !pending)
      problems.push(`row ${row.agent} ${row.commit} ${row.status} "${row.description}" answers no experiment`);
  }
  const baselines = new Map<string, number>();
  for (const row of facts.rows.filter((row) => row.description === "baseline"))
    baselines.set(row.agent, (baselines.get(row.agent) ?? 0) + 1);
  for (const [agent, count] of baselines) if (count > 1) problems.push(`${agent} has ${count} baseline rows`);
  for (const run of unknownRuns(facts))
    problems.push(`run ${run} reached the verifier but has neither a verdict nor a queue entry: lost`);
  for (const branch of facts.branches) problems.push(...checkBranch(facts, branch));
  problems.push(...facts.leftovers.map((leftover) => `left running after org down: ${leftover}`));
  return problems;
}

/** Experiments that reached the verifier and left no row: judged without one, or run and forgotten. */
export function findLostExperiments(facts: OrgFacts): string[] {
  return [
    ...facts.verdicts.filter((verdict) => rowsOf(facts, verdict).length === 0).map((verdict) => verdict.id),
    ...unknownRuns(facts),
  ];
}

// By commit, not description: a commit is judged once, and a later request for it is answered from that row.
function rowsOf(facts: OrgFacts, verdict: VerdictFact): RowFact[] {
  return facts.rows.filter((row) => row.agent === verdict.agent && sameCommit(row.commit, verdict.commit));
}

function unknownRuns(facts: OrgFacts): string[] {
  const known = new Set([...facts.verdicts.map((verdict) => verdict.id), ...facts.queued.map((request) => request.id)]);
  return facts.runs.filter((run) => !known.has(run));
}

// Past the kept commit a branch holds only commits on their way:
// a judged one stays only under a newer one still to judge,
// because the verifier never resets a branch that has moved on.
function checkBranch(facts: OrgFacts, branch: BranchFact): string[] {
  const rows = facts.rows.filter((row) => row.agent === branch.agent);
  const kept =
    rows.filter((row) => row.status === "keep" && row.description !== "baseline").at(-1)?.commit ?? facts.baseCommit;
  const keptIndex = findAnchor(facts, branch, kept);
  if (keptIndex < 0) return [`${branch.agent}'s branch lost its kept commit ${short(kept)}`];
  const newer = branch.commits.slice(0, keptIndex);
  const queued = (commit: string) =>
    facts.queued.some((request) => request.agent === branch.agent && sameCommit(request.commit, commit));
  const judged = (commit: string) => rows.some((row) => sameCommit(row.commit, commit));
  const problems: string[] = [];
  newer.forEach((commit, index) => {
    const awaited = newer.slice(0, index).some((above) => queued(above) || !judged(above));
    if (judged(commit) && !queued(commit) && !awaited)
      problems.push(`${branch.agent}'s branch still holds ${short(commit)}, which results.tsv says was not kept`);
  });
  return problems;
}

// An agent may leave its own best for the org's, a commit another
// agent (or the org's stacking) kept: the built-in researcher does.
function findAnchor(facts: OrgFacts, branch: BranchFact, kept: string): number {
  if (sameCommit(kept, facts.baseCommit)) return branch.commits.length;
  const own = branch.commits.findIndex((commit) => sameCommit(commit, kept));
  if (own >= 0) return own;
  const keptByOthers = (commit: string) =>
    facts.rows.some((row) => row.agent !== branch.agent && row.status === "keep" && sameCommit(row.commit, commit));
  return branch.commits.findIndex(keptByOthers);
}
