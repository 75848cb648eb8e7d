import { requestId, type ExperimentRequest } from "../domain/experiments/request.js";
import type { SubmitAnswer } from "../domain/experiments/submit-reply.js";
import { OrgError } from "../domain/errors.js";
import { orgPaths } from "../domain/paths.js";
import { decideQueueRoom } from "../domain/experiments/schedule.js";
import { DEFAULT_QUEUE_PER_AGENT } from "../domain/config/index.js";
import { knowAncestor } from "../domain/experiments/submit-git.js";
import { readLedger } from "../adapters/store/agent-ledger.js";
import { assertContractAgreed } from "../adapters/store/contracts.js";
import { assertDaemonAlive } from "../adapters/daemon-client.js";
import { addOutcome } from "../adapters/fs/disk-space.js";
import { readRecord } from "../adapters/store/org-record.js";
import { addToQueue, listQueue } from "../adapters/store/queue.js";
import { assertJournaledVerdict, waitForVerdict } from "../adapters/verifier/verdict-file.js";
import { openOrgWorktree } from "../adapters/git/worktree-git-dir.js";
import { openSubmitGit } from "../adapters/git/submit-worktree.js";
import { findCaller } from "../adapters/identity/find-caller.js";
import { findWorktreeAgent } from "../adapters/identity/find-worktree-agent.js";
import { recordPhase, tracePhase } from "../adapters/trace.js";
import { commitStaged } from "./submit-commit.js";

const step = <T>(phase: string, run: () => Promise<T>) => tracePhase("submit", phase, run);

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
  // Node's start and the bundle's load, until the submit began: the process's first phase.
  recordPhase("submit", "process-start", performance.now());
  const record = await step("record", () => readRecord(input.root));
  const paths = orgPaths(input.root);
  // Read at once, refused in the order they are checked in: the first refusal is the one said.
  const found = step("worktree-agent", () => findWorktreeAgent(record.agents, input.cwd));
  const asked = settled(step("caller", () => findCaller(input.root, record.agents)));
  const agent = await found;
  if (!agent) {
    const fix = `run it from one of ${paths.worktrees}/<agent>`;
    throw new OrgError(`not inside an agent's worktree (${input.cwd}) — ${fix}`, "not-agent");
  }
  const down = "the org is not running — start it with `org up` (nothing was committed)";
  const outcome = "nothing was committed";
  const alive = settled(step("daemon", () => assertDaemonAlive(paths.daemon, down, { outcome })));
  const agreed = settled(step("contract", () => assertContractAgreed(input.root, agent.role, record.baseCommit)));
  const listed = settled(step("queue-read", () => listQueue(paths.state)));
  const ledgered = settled(step("ledger", () => readLedger(paths.state, agent.name)));
  const caller = await asked;
  if (caller.kind === "agent" && caller.agent !== agent.name) {
    const own = record.agents.find((candidate) => candidate.name === caller.agent)?.worktree;
    const fix = `submit from your own, ${own} (nothing was committed)`;
    const whose = `${agent.worktree} is ${agent.name}'s worktree`;
    throw new OrgError(`you are ${caller.agent}, but ${whose} — ${fix}`, "not-agent");
  }
  const daemon = await alive;
  await agreed;
  const queued = await listed;
  const room = decideQueueRoom(queued, agent.name, daemon.queuePerAgent ?? DEFAULT_QUEUE_PER_AGENT);
  if (room.kind === "full") throw new OrgError(room.reason, "queue-full");
  const mine = queued.filter((request) => request.agent === agent.name && request.kind === "candidate");
  const ledger = await ledgered;
  const say = (line: string) => input.warn(`org: ${line}`);
  const opened = () => openOrgWorktree(record.repo, agent.worktree, agent.name, say, paths.state);
  const worktree = await step("open-worktree", opened);
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
  await step("queue-write", () => addToQueue(paths.state, request)).catch((error: unknown) => {
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

// A read awaited later, after the checks before it: its rejection until then is not an unhandled one.
function settled<T>(read: Promise<T>): Promise<T> {
  read.catch(() => undefined);
  return read;
}
