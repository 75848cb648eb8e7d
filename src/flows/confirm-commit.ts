import type { ConfirmReport } from "../domain/experiments/confirm-report.js";
import { OrgError } from "../domain/errors.js";
import { requestId, type ExperimentRequest } from "../domain/experiments/request.js";
import { orgPaths } from "../domain/paths.js";
import { assertDaemonAlive } from "../adapters/daemon-client.js";
import { waitForConfirmation } from "../adapters/verifier/confirmation.js";
import { addOutcome } from "../adapters/fs/disk-space.js";
import { readFrontier } from "../adapters/store/frontier-file.js";
import { addToQueue } from "../adapters/store/queue.js";
import { readRecord } from "../adapters/store/org-record.js";
import { resolveCommit } from "../adapters/git/run.js";
import { branchesContaining } from "../adapters/git/refs.js";

/** A confirmation in the verifier's queue: which commit, in whose slot; `waitForReport` follows it to its runs. */
export interface Confirming {
  commit: string;
  agent: string;
  waitForReport(): Promise<ConfirmReport>;
}

/** `org confirm`: queue `runs` fresh-seed re-runs of a commit in an agent's GPU slot (default: the agent owning it). */
export async function confirmCommit(
  input: { root: string; commit: string; runs: number; agent?: string },
): Promise<Confirming> {
  const { runs } = input;
  if (!Number.isInteger(runs) || runs < 1 || runs > 100) {
    throw new OrgError(`-n must be a whole number from 1 to 100, got ${runs}`, "usage");
  }
  const record = await readRecord(input.root);
  const paths = orgPaths(input.root);
  const commit = await resolveCommit(record.repo, input.commit);
  if (!commit) {
    const fix = "name a commit from `org results`";
    throw new OrgError(`"${input.commit}" is not a commit in ${record.repo} — ${fix}`, "no-commit");
  }
  const names = record.agents.map((candidate) => candidate.name);
  const agent = input.agent ?? (await owningAgent(record.name, record.repo, commit, paths.state)) ?? names[0];
  if (!agent || !names.includes(agent)) {
    throw new OrgError(`no agent named "${agent}" — agents: ${names.join(", ")}`, "unknown-agent");
  }
  const down = "the org is not running — start it with `org up`";
  await assertDaemonAlive(paths.daemon, down, { outcome: "nothing was queued" });
  const now = new Date();
  const request: ExperimentRequest = {
    id: requestId(now, agent, `confirm-${commit.slice(0, 7)}`),
    agent, commit, description: `confirm ×${runs}`, kind: "confirm", submittedAt: now.toISOString(), runs,
  };
  await addToQueue(paths.state, request)
    .catch((error: unknown) => addOutcome(error, "nothing was queued — run `org confirm` again then"));
  return { commit, agent, waitForReport: () => waitForConfirmation(paths, request.id) };
}

// The agent whose branch holds the commit runs it (its GPU, its queue); the frontier's agent breaks ties.
async function owningAgent(org: string, repo: string, commit: string, state: string): Promise<string | undefined> {
  const prefix = `org/${org}/`;
  const branches = await branchesContaining(repo, commit, `${prefix}*`);
  const owners = branches.map((branch) => branch.slice(prefix.length)).filter((name) => name && name !== "best");
  const frontier = await readFrontier(state);
  return frontier && owners.includes(frontier.agent) ? frontier.agent : owners[0];
}
