import { requestId, type ExperimentRequest } from "../domain/experiments/request.js";
import type { SubmitAnswer } from "../domain/experiments/submit-reply.js";
import { OrgError } from "../domain/errors.js";
import { orgPaths } from "../domain/paths.js";
import { decideQueueRoom } from "../domain/experiments/schedule.js";
import { DEFAULT_QUEUE_PER_AGENT } from "../domain/config/index.js";
import { decideBranchRef, isStaged, knowAncestor } from "../domain/experiments/submit-git.js";
import { readLedger } from "../adapters/store/agent-ledger.js";
import { assertContractAgreed } from "../adapters/store/contracts.js";
import { assertDaemonAlive } from "../adapters/daemon-client.js";
import { addOutcome } from "../adapters/fs/disk-space.js";
import { readRecord } from "../adapters/store/org-record.js";
import { addToQueue, listQueue } from "../adapters/store/queue.js";
import { assertJournaledVerdict, waitForVerdict } from "../adapters/verifier/verdict-file.js";
import { openOrgWorktree } from "../adapters/git/worktree-git-dir.js";
import { openSubmitGit, type SubmitGit } from "../adapters/git/submit-worktree.js";
import { findCaller } from "../adapters/identity/find-caller.js";
import { findWorktreeAgent } from "../adapters/identity/find-worktree-agent.js";

export interface SubmitInput {
  root: string;
  cwd: string;
  message?: string;
  /** false: the verdict comes to the agent's inbox rather than to a waiting `org submit`. */
  wait: boolean;
  /** A line for stderr: what org repaired in the worktree's git files, a verdict not yet journaled. */
  warn: (line: string) => void;
}

/** An experiment in the verifier's queue; `waitForVerdict` follows it to its verdict. */
export interface Submitted {
  id: string;
  commit: string;
  description: string;
  waitForVerdict(): Promise<SubmitAnswer>;
}

/** `org submit`: commit the caller's worktree and queue the commit for the verifier; refused with nothing changed. */
export async function submitExperiment(input: SubmitInput): Promise<Submitted> {
  const record = await readRecord(input.root);
  const paths = orgPaths(input.root);
  const agent = await findWorktreeAgent(record.agents, input.cwd);
  if (!agent) {
    const fix = `run it from one of ${paths.worktrees}/<agent>`;
    throw new OrgError(`not inside an agent's worktree (${input.cwd}) — ${fix}`, "not-agent");
  }
  const caller = await findCaller(input.root, record.agents);
  if (caller.kind === "agent" && caller.agent !== agent.name) {
    const own = record.agents.find((candidate) => candidate.name === caller.agent)?.worktree;
    const fix = `submit from your own, ${own} (nothing was committed)`;
    const whose = `${agent.worktree} is ${agent.name}'s worktree`;
    throw new OrgError(`you are ${caller.agent}, but ${whose} — ${fix}`, "not-agent");
  }
  const down = "the org is not running — start it with `org up` (nothing was committed)";
  const daemon = await assertDaemonAlive(paths.daemon, down, { outcome: "nothing was committed" });
  await assertContractAgreed(input.root, agent.role, record.baseCommit);
  const queued = await listQueue(paths.state);
  const room = decideQueueRoom(queued, agent.name, daemon.queuePerAgent ?? DEFAULT_QUEUE_PER_AGENT);
  if (room.kind === "full") throw new OrgError(room.reason, "queue-full");
  const mine = queued.filter((request) => request.agent === agent.name && request.kind === "candidate");
  const ledger = await readLedger(paths.state, agent.name);
  const say = (line: string) => input.warn(`org: ${line}`);
  const worktree = await openOrgWorktree(record.repo, agent.worktree, agent.name, say, paths.state);
  const git = openSubmitGit(worktree);
  const made = await commitStaged(git, {
    message: input.message, branch: agent.branch, lastVerified: ledger?.lastVerified ?? record.baseCommit,
    queued: mine, baselineCrash: ledger?.baselineCrash,
  });
  const { head, before, staged } = made;
  const description = input.message?.trim() || (await git.readSubject(head));
  // Made on a candidate still queued: the verifier judges only this commit's own change, on the agent's best then.
  const last = mine.at(-1);
  const known = last && knowAncestor(last.commit, head, staged ? before : undefined);
  const after = last && (known ?? (await git.isAncestor(last.commit, head))) ? last.commit : undefined;
  const now = new Date();
  const request: ExperimentRequest = {
    id: requestId(now, agent.name, head.slice(0, 7)),
    agent: agent.name, commit: head, description, kind: "candidate", submittedAt: now.toISOString(),
    ...(after ? { after } : {}), ...(input.wait === false ? { reply: "message" as const } : {}),
  };
  await addToQueue(paths.state, request).catch((error: unknown) => {
    const kept = `your commit ${head.slice(0, 7)} is kept on your branch but not queued`;
    addOutcome(error, `${head === before ? "nothing was queued" : kept} — run \`org submit\` again then`);
  });
  return {
    id: request.id, commit: head, description,
    waitForVerdict: async () => {
      const verdict = await waitForVerdict(paths, request.id);
      await assertJournaledVerdict(input.root, request.id, input.warn);
      return verdict;
    },
  };
}

interface CommitRules {
  message: string | undefined;
  branch: string;
  lastVerified: string;
  queued: readonly ExperimentRequest[];
  baselineCrash: string | undefined;
}

/** Stage all and commit it onto the agent's branch; a refusal leaves the worktree exactly as it was. */
async function commitStaged(
  git: SubmitGit, rules: CommitRules,
): Promise<{ head: string; before: string; staged: boolean }> {
  const { tree, head: before, headTree, symbolic } = await git.stageAll();
  const staged = isStaged(tree, headTree);
  // Every refusal below leaves the worktree exactly as it was: unstage what `add --all` staged.
  const refuse = async (message: string, code: string) => {
    if (staged) await git.unstage();
    throw new OrgError(message, code);
  };
  if (staged && !rules.message?.trim()) {
    const example = 'org submit -m "raised the learning rate to 0.04"';
    await refuse(`say what you tried: ${example} (nothing was committed)`, "no-message");
  }
  if (!staged && before === rules.lastVerified) {
    await refuse(`nothing to submit: no changes since ${before.slice(0, 7)}, your last verified commit`, "nothing");
  }
  const waiting = staged ? undefined : rules.queued.find((request) => request.commit === before);
  if (waiting) {
    const fix = `\`org wait ${waiting.id}\` waits for its verdict`;
    const queued = `no changes since ${before.slice(0, 7)}, which is queued already`;
    await refuse(`nothing to submit: ${queued} — ${fix}`, "nothing");
  }
  if (rules.baselineCrash) {
    const fix = "fix it, then `org down && org up` (nothing was committed)";
    await refuse(`your baseline crashed, so the base is broken: ${rules.baselineCrash} — ${fix}`, "broken-base");
  }
  const ref = staged ? decideBranchRef(symbolic, rules.branch) : "HEAD";
  if (ref === undefined) {
    const fix = `\`git switch ${rules.branch}\`, then org submit again (nothing was committed)`;
    await refuse(`your worktree's HEAD is not on your branch ${rules.branch} — ${fix}`, "not-on-branch");
  }
  if (!staged) return { head: before, before, staged };
  // A commit that fails (a full disk takes git too) leaves the worktree as it was: nothing staged by us.
  const written = tree.exitCode === 0 ? tree.stdout.trim() : undefined;
  const made = await git.commit(before, rules.message!.trim(), ref!, written).catch(async (error: unknown) => {
    await git.unstage();
    throw error;
  });
  if (made.kind === "moved") await refuse(made.reason, "moved");
  return { head: made.kind === "committed" ? made.commit : before, before, staged };
}
