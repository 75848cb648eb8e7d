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
  /** Ids still waiting in state/queue. */
  queued: string[];
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
    const rows = facts.rows.filter((row) => row.agent === verdict.agent && sameCommit(row.commit, verdict.commit) && row.description === verdict.description);
    if (rows.length !== 1) problems.push(`experiment ${verdict.id} has ${rows.length} rows in results.tsv, not 1`);
  }
  for (const row of facts.rows) {
    const answered = facts.verdicts.some((verdict) => verdict.agent === row.agent && sameCommit(row.commit, verdict.commit) && verdict.description === row.description);
    const pending = facts.queued.some((id) => id.includes(row.agent));
    if (!answered && !pending) problems.push(`row ${row.agent} ${row.commit} ${row.status} "${row.description}" answers no experiment`);
  }
  const baselines = new Map<string, number>();
  for (const row of facts.rows.filter((row) => row.description === "baseline")) baselines.set(row.agent, (baselines.get(row.agent) ?? 0) + 1);
  for (const [agent, count] of baselines) if (count > 1) problems.push(`${agent} has ${count} baseline rows`);
  const known = new Set([...facts.verdicts.map((verdict) => verdict.id), ...facts.queued]);
  for (const run of facts.runs) if (!known.has(run)) problems.push(`run ${run} reached the verifier but has neither a verdict nor a queue entry: lost`);
  for (const branch of facts.branches) problems.push(...checkBranch(facts, branch));
  problems.push(...facts.leftovers.map((leftover) => `left running after org down: ${leftover}`));
  return problems;
}

// The head is the agent's last kept commit, or one commit past it still on its way to the verifier.
function checkBranch(facts: OrgFacts, branch: BranchFact): string[] {
  const rows = facts.rows.filter((row) => row.agent === branch.agent);
  const kept = rows.filter((row) => row.status === "keep" && row.description !== "baseline").at(-1)?.commit ?? facts.baseCommit;
  const problems: string[] = [];
  const rejected = new Set(rows.filter((row) => row.status !== "keep").map((row) => short(row.commit)));
  for (const commit of branch.commits) {
    if (rejected.has(short(commit)) && !rows.some((row) => row.status === "keep" && sameCommit(row.commit, commit))) {
      problems.push(`${branch.agent}'s branch still holds ${short(commit)}, which results.tsv says was not kept`);
    }
  }
  const keptIndex = sameCommit(kept, facts.baseCommit) ? branch.commits.length : branch.commits.findIndex((commit) => sameCommit(commit, kept));
  if (keptIndex < 0) problems.push(`${branch.agent}'s branch lost its kept commit ${short(kept)}`);
  else if (keptIndex > 1) problems.push(`${branch.agent}'s branch is ${keptIndex} commits past its kept commit ${short(kept)}`);
  return problems;
}
