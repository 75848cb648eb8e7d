import { join } from "node:path";
import { decideFrontier, type Frontier } from "../../org/experiments/frontier.js";
import { formatLogEntry } from "../../org/log-entry.js";
import { orgPaths } from "../../org/paths.js";
import type { OrgRecord } from "../../org/state.js";
import type { Goal } from "../../org/experiments/verdict.js";
import { findJournaledFrontier } from "../../org/experiments/journal.js";
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
}): Promise<Frontier | undefined> {
  return input.journal.exclusive(async (tx) => {
    const current = findJournaledFrontier(tx.entries);
    if (current && input.onlyIfMissing) return undefined;
    const decision = decideFrontier(current, input.candidate, input.goal, input.metricName);
    if (decision.kind === "hold") return undefined;
    const next: Frontier = { ...input.candidate, at: new Date().toISOString() };
    await tx.append({ kind: "frontier", payload: next });
    await moveFrontier(input, next, current !== undefined, decision.reason);
    return next;
  });
}

async function moveFrontier(input: { record: OrgRecord; notify: (agent: string, text: string) => Promise<void> }, next: Frontier, advanced: boolean, reason: string): Promise<void> {
  const { record } = input;
  await moveRef(record.repo, `refs/heads/org/${record.name}/best`, next.commit, reason);
  await writeJsonAtomic(join(orgPaths(record.root).state, "frontier.json"), next);
  await appendLines(orgPaths(record.root).log, [formatLogEntry({ date: new Date(), op: "frontier", title: `${next.agent} ${next.commit.slice(0, 7)}`, body: reason })]);
  if (advanced) {
    const text = `## [${next.at}] the org's best advanced\n${reason}.\nBuild on it: \`git rebase org/${record.name}/best\` (or merge it) — your own best stays on your branch.\n`;
    for (const agent of record.agents) if (agent.name !== next.agent) await input.notify(agent.name, text);
  }
}
