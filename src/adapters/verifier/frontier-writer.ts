// The org best's one writer: the journal (the truth), the best ref, frontier.json and log.md, in that
// order, here alone.
import { decideBest } from "../../domain/experiments/best-guard.js";
import { decideFrontier, isSameFrontier, type Frontier } from "../../domain/experiments/frontier.js";
import type { Incident } from "../../domain/experiments/incident.js";
import { findJournaledFrontier, type JournalEntry } from "../../domain/experiments/journal.js";
import { formatLogEntry } from "../../domain/log-entry.js";
import { orgPaths } from "../../domain/paths.js";
import type { OrgRecord } from "../../domain/state.js";
import type { Goal } from "../../domain/experiments/verdict.js";
import { bestBranchOf, findHalf, frontierRefOf } from "../../domain/config-versions/ab-run-record.js";
import { readAbRun } from "../store/ab-run.js";
import { readFrontier, writeFrontierFile } from "../store/frontier-file.js";
import { appendLines } from "../fs/files.js";
import { deleteRef, moveRef, type BestRefs } from "../git/refs.js";
import type { JournalStore } from "../store/journal-store.js";

/**
 * Moves `org/<name>/best` to a confirmed keep that beats the whole org, and tells the other agents. The journal, not
 * frontier.json, says where the frontier is; the move is journaled before it is made, so a killed daemon's is completed
 * by `guardFrontier` at the next daemon's start.
 */
export async function advanceFrontier(input: {
  record: OrgRecord;
  journal: JournalStore;
  goal: Goal;
  metricName: string;
  candidate: { commit: string; metric: number; agent: string; runs?: number };
  notify: (agent: string, text: string) => Promise<void>;
  /** Baselines only start the frontier: the same base measured by another agent is no progress. */
  onlyIfMissing?: boolean;
  /** The agent whose half's frontier this is (a stack's row is by org); default: the candidate's. */
  owner?: string;
}): Promise<Frontier | undefined> {
  // An A/B run keeps a frontier per half: each builds only on its own wins.
  const run = await readAbRun(orgPaths(input.record.root).state);
  const half = findHalf(run, input.owner ?? input.candidate.agent);
  return input.journal.exclusive(async (tx) => {
    const current = findJournaledFrontier(tx.entries, half);
    if (current && input.onlyIfMissing) return undefined;
    const decision = decideFrontier(current, input.candidate, input.goal, input.metricName);
    if (decision.kind === "hold") return undefined;
    const next: Frontier = { ...input.candidate, at: new Date().toISOString(), ...(half ? { half } : {}) };
    await tx.append({ kind: "frontier", payload: next });
    const reason = `${decision.reason}${half ? " (program B's half)" : ""}`;
    await moveFrontier(input, next, current !== undefined, reason, (agent) => findHalf(run, agent) === half);
    return next;
  });
}

type Notify = (agent: string, text: string) => Promise<void>;

async function moveFrontier(input: { record: OrgRecord; notify: Notify }, next: Frontier, advanced: boolean,
  reason: string, sameHalf: (agent: string) => boolean): Promise<void> {
  const { record } = input;
  const branch = bestBranchOf(record.name, next.half);
  await moveRef(record.repo, bestRefsOf(record.name, next.half), next.commit, reason);
  await writeFrontierFile(orgPaths(record.root).state, next);
  const title = `${next.agent} ${next.commit.slice(0, 7)}${next.half ? " (B)" : ""}`;
  await appendLines(orgPaths(record.root).log, [
    formatLogEntry({ date: new Date(), op: "frontier", title, body: reason }),
  ]);
  if (advanced) {
    const text = `## [${next.at}] the org's best advanced\n${reason}.\nBuild on it: \`git rebase ${branch}\` (or merge `
      + `it)`
      + " — your own best stays on your branch.\n";
    for (const agent of record.agents) {
      if (agent.name !== next.agent && sameHalf(agent.name)) await input.notify(agent.name, text);
    }
  }
}

/**
 * Holds a half's best ref and frontier.json to the journal. The ref: a move journaled but not made (a killed daemon,
 * seen only at `starting`) is completed, any other position put back. frontier.json is rewritten from the journal
 * at the start and after any repair of the ref; never removed, as a journal that vouches for no frontier (one broken at
 * its first line) says nothing of where the org got to.
 */
export async function guardFrontier(input: {
  record: OrgRecord; entries: readonly JournalEntry[]; half: "b" | undefined; starting: boolean;
  /** Where the ref pointed at the tick's listing, which may predate a move just made; read again before a repair. */
  listed: string | undefined;
  branchHead: (branch: string) => Promise<string | undefined>;
}): Promise<Incident[]> {
  const { record, entries, half, starting } = input;
  const branch = bestBranchOf(record.name, half);
  let decision = half ? undefined : decideBest(input.listed, entries, starting);
  if (decision?.kind !== "hold") decision = decideBest(await input.branchHead(branch), entries, starting, half);
  if (decision.kind === "hold") return starting ? repairFrontierFile(record, entries, half) : [];
  const refs = bestRefsOf(record.name, half);
  if (decision.commit) await moveRef(record.repo, refs, decision.commit, decision.reason);
  else await deleteRef(record.repo, refs);
  const at = new Date().toISOString();
  const found: Incident[] = decision.kind === "complete"
    ? [{ kind: "recovered", title: `org best moved to ${decision.commit.slice(0, 7)} from the journal (${at})`,
      body: decision.reason }]
    : [{ kind: "tampered", title: `org best moved by hand, put back (${at})`,
      body: `${decision.reason}; it was put back — only a verdict moves the org best` }];
  return [...found, ...(await repairFrontierFile(record, entries, half))];
}

async function repairFrontierFile(record: OrgRecord, entries: readonly JournalEntry[], half: "b" | undefined)
  : Promise<Incident[]> {
  const state = orgPaths(record.root).state;
  const journaled = findJournaledFrontier(entries, half);
  const found = await readFrontier(state, half);
  if (!journaled || isSameFrontier(found, journaled)) return [];
  await writeFrontierFile(state, journaled);
  const was = found ? `at ${found.commit.slice(0, 7)}` : "missing or unreadable";
  return [{
    kind: "recovered",
    title: `the org best's record${half ? " (B)" : ""} rewritten from the journal (${new Date().toISOString()})`,
    body: `it was ${was}; the journal has the org best at ${journaled.commit.slice(0, 7)} by ${journaled.agent}`,
  }];
}

function bestRefsOf(org: string, half: "b" | undefined): BestRefs {
  return { branch: `refs/heads/${bestBranchOf(org, half)}`, frontier: frontierRefOf(org, half) };
}
