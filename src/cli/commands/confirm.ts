import { formatConfirmReport } from "../../org/experiments/confirm.js";
import { OrgError } from "../../org/errors.js";
import { requestId, type ExperimentRequest } from "../../org/experiments/request.js";
import { orgPaths } from "../../org/paths.js";
import { assertDaemonAlive } from "../../adapters/daemon-client.js";
import { waitForConfirmation } from "../../adapters/verifier/confirmation.js";
import { addOutcome } from "../../adapters/fs/disk-space.js";
import { readFrontier } from "../../adapters/store/frontier.js";
import { addToQueue } from "../../adapters/store/queue.js";
import { readRecord } from "../../adapters/store/org-record.js";
import type { Io } from "../io.js";
import { resolveCommit } from "../../adapters/git/run.js";
import { branchesContaining } from "../../adapters/git/refs.js";

/** `org confirm <commit> [-n 5] [--agent a]`: re-run a commit with fresh seeds; mean ± sd next to the baseline's. */
export async function runConfirm(opts: { root: string; commit: string; runs: number; agent?: string }, io: Io): Promise<number> {
  if (!Number.isInteger(opts.runs) || opts.runs < 1 || opts.runs > 100) throw new OrgError(`-n must be a whole number from 1 to 100, got ${opts.runs}`, "usage");
  const record = await readRecord(opts.root);
  const paths = orgPaths(opts.root);
  const commit = await resolveCommit(record.repo, opts.commit);
  if (!commit) throw new OrgError(`"${opts.commit}" is not a commit in ${record.repo} — name a commit from \`org results\``, "no-commit");
  const agent = opts.agent ?? (await owningAgent(record.name, record.repo, commit, paths.state)) ?? record.agents[0]?.name;
  if (!agent || !record.agents.some((candidate) => candidate.name === agent)) {
    throw new OrgError(`no agent named "${agent}" — agents: ${record.agents.map((candidate) => candidate.name).join(", ")}`, "unknown-agent");
  }
  await assertDaemonAlive(paths.daemon, "the org is not running — start it with `org up`", { outcome: "nothing was queued" });
  const now = new Date();
  const request: ExperimentRequest = {
    id: requestId(now, agent, `confirm-${commit.slice(0, 7)}`),
    agent, commit, description: `confirm ×${opts.runs}`, kind: "confirm", submittedAt: now.toISOString(), runs: opts.runs,
  };
  await addToQueue(paths.state, request).catch((error: unknown) => addOutcome(error, "nothing was queued — run `org confirm` again then"));
  io.out(`re-running ${commit.slice(0, 7)} ${opts.runs} times in ${agent}'s slot…`);
  const report = await waitForConfirmation(paths, request.id);
  for (const line of formatConfirmReport(report)) io.out(line);
  return report.crashed ? 1 : 0;
}

// The agent whose branch holds the commit runs it (its GPU, its queue); the frontier's agent breaks ties.
async function owningAgent(org: string, repo: string, commit: string, state: string): Promise<string | undefined> {
  const owners = (await branchesContaining(repo, commit, `org/${org}/*`)).map((branch) => branch.slice(`org/${org}/`.length)).filter((name) => name && name !== "best");
  const frontier = await readFrontier(state);
  return frontier && owners.includes(frontier.agent) ? frontier.agent : owners[0];
}
