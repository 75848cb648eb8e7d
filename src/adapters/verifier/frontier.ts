import { join } from "node:path";
import { decideFrontier, type Frontier } from "../../org/experiments/frontier.js";
import { formatLogEntry } from "../../org/log-entry.js";
import { orgPaths } from "../../org/paths.js";
import type { OrgRecord } from "../../org/state.js";
import type { Goal } from "../../org/experiments/verdict.js";
import { appendLines, readJson, writeJsonAtomic } from "../fs/files.js";
import { moveRef } from "../git/refs.js";

/** Moves `org/<name>/best` to a confirmed keep that beats the whole org, and tells the other agents. */
export async function advanceFrontier(input: {
  record: OrgRecord;
  goal: Goal;
  metricName: string;
  candidate: { commit: string; metric: number; agent: string; runs?: number };
  notify: (agent: string, text: string) => Promise<void>;
  /** Baselines only start the frontier: the same base measured by another agent is no progress. */
  onlyIfMissing?: boolean;
}): Promise<Frontier | undefined> {
  const { record, candidate } = input;
  const file = join(orgPaths(record.root).state, "frontier.json");
  const current = await readJson<Frontier>(file);
  if (current && input.onlyIfMissing) return undefined;
  const decision = decideFrontier(current, candidate, input.goal, input.metricName);
  if (decision.kind === "hold") return undefined;
  const branch = `refs/heads/org/${record.name}/best`;
  await moveRef(record.repo, branch, candidate.commit, decision.reason);
  const next: Frontier = { ...candidate, at: new Date().toISOString() };
  await writeJsonAtomic(file, next);
  await appendLines(orgPaths(record.root).log, [formatLogEntry({ date: new Date(), op: "frontier", title: `${candidate.agent} ${candidate.commit.slice(0, 7)}`, body: decision.reason })]);
  if (current) {
    const text = `## [${next.at}] the org's best advanced\n${decision.reason}.\nBuild on it: \`git rebase org/${record.name}/best\` (or merge it) — your own best stays on your branch.\n`;
    for (const agent of record.agents) if (agent.name !== candidate.agent) await input.notify(agent.name, text);
  }
  return next;
}
