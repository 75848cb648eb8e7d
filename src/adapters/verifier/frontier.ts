import { join } from "node:path";
import { decideFrontier, type Frontier } from "../../org/experiments/frontier.js";
import { formatLogEntry } from "../../org/log-entry.js";
import { orgPaths } from "../../org/paths.js";
import type { OrgRecord } from "../../org/state.js";
import type { Goal } from "../../org/experiments/verdict.js";
import { findJournaledFrontier } from "../../org/experiments/journal.js";
import { bestBranchOf, findHalf } from "../../org/programs/ab-run.js";
import { readAbRun } from "../store/ab-run.js";
import { appendLines, writeJsonAtomic } from "../fs/files.js";
import { moveRef } from "../git/refs.js";
import type { JournalStore } from "../store/journal.js";

/**
 * Moves `org/<name>/best` to a confirmed keep that beats the whole org, and tells the other agents. The journal, not
 * frontier.json, says where the frontier is; the move is journaled before it is made, so a killed daemon's is completed.
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
    await moveFrontier(input, next, current !== undefined, `${decision.reason}${half ? " (program B's half)" : ""}`, (agent) => findHalf(run, agent) === half);
    return next;
  });
}

/** Where the stacks read a half's frontier: frontier.json, or frontier-b.json for B's half of an A/B run. */
export function frontierFile(state: string, half: "b" | undefined): string {
  return join(state, half ? "frontier-b.json" : "frontier.json");
}

async function moveFrontier(input: { record: OrgRecord; notify: (agent: string, text: string) => Promise<void> }, next: Frontier, advanced: boolean, reason: string, sameHalf: (agent: string) => boolean): Promise<void> {
  const { record } = input;
  const branch = bestBranchOf(record.name, next.half);
  await moveRef(record.repo, `refs/heads/${branch}`, next.commit, reason);
  await writeJsonAtomic(frontierFile(orgPaths(record.root).state, next.half), next);
  await appendLines(orgPaths(record.root).log, [formatLogEntry({ date: new Date(), op: "frontier", title: `${next.agent} ${next.commit.slice(0, 7)}${next.half ? " (B)" : ""}`, body: reason })]);
  if (advanced) {
    const text = `## [${next.at}] the org's best advanced\n${reason}.\nBuild on it: \`git rebase ${branch}\` (or merge it) — your own best stays on your branch.\n`;
    for (const agent of record.agents) if (agent.name !== next.agent && sameHalf(agent.name)) await input.notify(agent.name, text);
  }
}
