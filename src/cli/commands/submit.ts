import { realpath } from "node:fs/promises";
import { requestId, type ExperimentRequest } from "../../org/experiments/request.js";
import { OrgError } from "../../org/errors.js";
import { isInsideDir, orgPaths } from "../../org/paths.js";
import { EXIT } from "../../org/scripting/index.js";
import { formatJson } from "../../org/safe-text.js";
import { assertContractAgreed } from "../../adapters/store/contracts.js";
import { assertDaemonAlive } from "../../adapters/daemon-client.js";
import { addOutcome, describeDiskFull } from "../../adapters/fs/disk-space.js";
import { commitOnto } from "../../adapters/git/commit-onto.js";
import { readRecord } from "../../adapters/store/org-record.js";
import { addToQueue, listQueue } from "../../adapters/store/queue.js";
import { decideQueueRoom } from "../../org/experiments/schedule.js";
import { DEFAULT_QUEUE_PER_AGENT } from "../../org/config/verify-schema.js";
import { decideBranchRef, isStaged, knowAncestor } from "../../org/experiments/submit-git.js";
import { assertJournaledVerdict, waitForVerdict } from "../../adapters/verifier/verdict-file.js";
import type { Io } from "../io.js";
import { printAnswer } from "../answer.js";
import { openOrgWorktree } from "../../adapters/git/worktree-git-dir.js";
import { runGitOnWorktree } from "../../adapters/git/worktree-git.js";
import { findCaller } from "../../adapters/identity/find-caller.js";
import { readLedger } from "../../adapters/store/ledger.js";

/** `org submit -m "what I tried"`: commit the worktree, hand the commit to the verifier, print its verdict; `--no-wait` returns once it is queued. */
export async function runSubmit(
  opts: { root: string; cwd: string; message?: string; wait?: boolean; json?: boolean },
  io: Io,
): Promise<number> {
  const record = await readRecord(opts.root);
  const paths = orgPaths(opts.root);
  // Found by path, not by asking git: git in the caller's folder would follow the .git the agent wrote there.
  const agent = await findWorktreeAgent(record.agents, opts.cwd);
  if (!agent) throw new OrgError(`not inside an agent's worktree (${opts.cwd}) — run it from one of ${paths.worktrees}/<agent>`, "not-agent");
  const caller = await findCaller(opts.root, record.agents);
  if (caller.kind === "agent" && caller.agent !== agent.name) {
    const own = record.agents.find((candidate) => candidate.name === caller.agent)?.worktree;
    throw new OrgError(`you are ${caller.agent}, but ${agent.worktree} is ${agent.name}'s worktree — submit from your own, ${own} (nothing was committed)`, "not-agent");
  }
  const daemon = await assertDaemonAlive(paths.daemon, "the org is not running — start it with `org up` (nothing was committed)", { outcome: "nothing was committed" });
  await assertContractAgreed(opts.root, agent.role, record.baseCommit);
  const queued = await listQueue(paths.state);
  const room = decideQueueRoom(queued, agent.name, daemon.queuePerAgent ?? DEFAULT_QUEUE_PER_AGENT);
  if (room.kind === "full") throw new OrgError(room.reason, "queue-full");
  const mine = queued.filter((request) => request.agent === agent.name && request.kind === "candidate");
  const ledger = await readLedger(paths.state, agent.name);
  const worktree = await openOrgWorktree(record.repo, agent.worktree, agent.name, (line) => io.err(`org: ${line}`), paths.state);
  const top = worktree.path;
  // The identity is read while `add` stages: the one call that writes the index runs alone.
  const [config, added] = await Promise.all([
    identity((args) => runGitOnWorktree(worktree, args)), runGitOnWorktree(worktree, ["add", "--all"]),
  ]);
  const git = (args: string[]) => runGitOnWorktree(worktree, args, { config });
  // Without this a full disk would read as "nothing to submit": git staged nothing because it could not write its index.
  if (added.exitCode !== 0 && /no space left|quota exceeded/i.test(added.stderr)) {
    throw new OrgError(`${await describeDiskFull(top, { what: `git could not stage your changes in ${top}` })}; nothing was committed`, "disk-full");
  }
  // One round: the index's tree, HEAD and its tree, HEAD's own ref; write-tree alone touches the index.
  const [tree, heads, symbolic] = await Promise.all([
    git(["write-tree"]), git(["rev-parse", "HEAD", "HEAD^{tree}"]), git(["symbolic-ref", "-q", "--no-recurse", "HEAD"]),
  ]);
  const [before = "", headTree] = heads.stdout.trim().split("\n");
  const staged = isStaged(tree, headTree);
  // Every refusal below leaves the worktree exactly as it was: unstage what `add --all` staged.
  const refuse = async (message: string, code: string) => {
    if (staged) await git(["reset", "--quiet"]);
    throw new OrgError(message, code);
  };
  if (staged && !opts.message?.trim()) await refuse('say what you tried: org submit -m "raised the learning rate to 0.04" (nothing was committed)', "no-message");
  if (!staged && before === (ledger?.lastVerified ?? record.baseCommit)) {
    await refuse(`nothing to submit: no changes since ${before.slice(0, 7)}, your last verified commit`, "nothing");
  }
  const waiting = staged ? undefined : mine.find((request) => request.commit === before);
  if (waiting) await refuse(`nothing to submit: no changes since ${before.slice(0, 7)}, which is queued already — \`org wait ${waiting.id}\` waits for its verdict`, "nothing");
  if (ledger?.baselineCrash) {
    await refuse(`your baseline crashed, so the base is broken: ${ledger.baselineCrash} — fix it, then \`org down && org up\` (nothing was committed)`, "broken-base");
  }
  let head = before;
  const ref = staged ? decideBranchRef(symbolic, agent.branch) : "HEAD";
  if (ref === undefined) {
    const fix = `\`git switch ${agent.branch}\`, then org submit again (nothing was committed)`;
    await refuse(`your worktree's HEAD is not on your branch ${agent.branch} — ${fix}`, "not-on-branch");
  }
  if (staged) {
    // A commit that fails (a full disk takes git too) leaves the worktree as it was: nothing staged by us.
    const written = tree.exitCode === 0 ? tree.stdout.trim() : undefined;
    const made = await commitOnto(git, before, opts.message!.trim(), ref!, written).catch(async (error: unknown) => {
      await git(["reset", "--quiet"]);
      throw error;
    });
    if (made.kind === "moved") await refuse(made.reason, "moved");
    else head = made.commit;
  }
  const description = opts.message?.trim() || (await git(["log", "-1", "--format=%s", head])).stdout.trim();
  // Made on a candidate still queued: the verifier judges only this commit's own change, on whatever the agent's best is then.
  const last = mine.at(-1);
  const known = last && knowAncestor(last.commit, head, staged ? before : undefined);
  const ancestor = last && (known ?? (await git(["merge-base", "--is-ancestor", last.commit, head])).exitCode === 0);
  const after = ancestor ? last.commit : undefined;
  const now = new Date();
  const request: ExperimentRequest = {
    id: requestId(now, agent.name, head.slice(0, 7)),
    agent: agent.name, commit: head, description, kind: "candidate", submittedAt: now.toISOString(),
    ...(after ? { after } : {}), ...(opts.wait === false ? { reply: "message" as const } : {}),
  };
  await addToQueue(paths.state, request).catch((error: unknown) => {
    addOutcome(error, head === before ? `nothing was queued — run \`org submit\` again then` : `your commit ${head.slice(0, 7)} is kept on your branch but not queued — run \`org submit\` again then`);
  });
  if (opts.wait === false) {
    if (opts.json) io.out(formatJson({ id: request.id, commit: head, description, verdict: null }));
    else {
      io.out(`queued ${head.slice(0, 7)} "${description}" as ${request.id}`);
      io.out(`its verdict comes to your inbox (\`org inbox\`); \`org wait ${request.id}\` waits for it here`);
    }
    return EXIT.ok;
  }
  // Under --json stdout holds the answer alone; the wait is said on stderr.
  (opts.json ? io.err : io.out)(`submitted ${head.slice(0, 7)} "${description}"; waiting for the verifier…`);
  const verdict = await waitForVerdict(paths, request.id);
  await assertJournaledVerdict(opts.root, request.id, (line) => io.err(line));
  return printAnswer(verdict, io, Boolean(opts.json));
}

type Git = (args: string[]) => Promise<{ exitCode: number | null; stdout: string }>;

/** The agent whose worktree holds `cwd`, by real path. */
async function findWorktreeAgent<T extends { worktree: string }>(agents: readonly T[], cwd: string) {
  const here = await realpath(cwd).catch(() => cwd);
  for (const agent of agents) {
    if (isInsideDir(here, await realpath(agent.worktree).catch(() => agent.worktree))) return agent;
  }
  return undefined;
}

// A research repo on a fresh machine may have no git identity; the agent's commits still need one.
async function identity(git: Git): Promise<string[]> {
  const name = await git(["config", "user.name"]);
  if (name.exitCode === 0 && name.stdout.trim() !== "") return [];
  return ["user.name=org agent", "user.email=agent@org.invalid"];
}
