import { orgPaths } from "../domain/paths.js";
import { readLedger } from "../adapters/store/agent-ledger.js";
import { assertContractAgreed } from "../adapters/store/contracts.js";
import { readOptionalRecord } from "../adapters/store/org-record.js";
import { listQueue } from "../adapters/store/queue.js";
import { runGit } from "../adapters/git/run.js";
import { findCaller } from "../adapters/identity/find-caller.js";
import { findWorktreeAgent } from "../adapters/identity/find-worktree-agent.js";

/**
 * What `org submit` reads before its first git call, read ahead on the org's own files by a process that will run
 * one (a brokered command's warm worker): its code is then compiled and its schemas built, and the submit it runs
 * later pays only for its reads. Read-only, each answer thrown away, and nothing here can fail the worker: the
 * submit reads everything again for itself.
 */
export async function warmSubmit(root: string): Promise<void> {
  const record = await readOptionalRecord(root).catch(() => undefined);
  const agent = record?.agents[0];
  if (!record || !agent) return;
  const state = orgPaths(root).state;
  // A process's first child loads node's spawn code: `git --version` reads no repo, so it runs nothing of an agent's.
  await Promise.all([
    findWorktreeAgent(record.agents, agent.worktree), findCaller(root, record.agents, {}),
    assertContractAgreed(root, agent.role, record.baseCommit), listQueue(state), readLedger(state, agent.name),
    runGit(["--version"]),
  ].map((read) => Promise.resolve(read).catch(() => undefined)));
}
