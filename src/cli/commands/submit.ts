import { join } from "node:path";
import type { AgentLedger, ExperimentRequest } from "../../org/experiment.js";
import { OrgError } from "../../org/errors.js";
import { agentPaths, orgPaths } from "../../org/paths.js";
import { formatSubmitReply } from "../../ui/submit-reply.js";
import { readJson, writeJsonAtomic } from "../../adapters/files.js";
import { isAlive, processRunner } from "../../adapters/process.js";
import type { VerdictFile } from "../../adapters/verifier-loop.js";
import type { Io } from "../io.js";
import { readRecord } from "./attach.js";

const HEARTBEAT_STALE_MS = 15_000;

/** `org submit -m "what I tried"`: commit the worktree, hand the commit to the verifier, print its verdict. */
export async function runSubmit(opts: { root: string; cwd: string; message?: string }, io: Io): Promise<number> {
  const top = (await processRunner.run(["git", "rev-parse", "--show-toplevel"], { cwd: opts.cwd })).stdout.trim();
  const record = await readRecord(opts.root);
  const paths = orgPaths(opts.root);
  const agent = record.agents.find((candidate) => candidate.worktree === top);
  if (!agent) throw new OrgError(`not inside an agent's worktree (${opts.cwd}) — run it from one of ${paths.worktrees}/<agent>`, "not-agent");
  await assertDaemonAlive(paths.daemon);
  const git = async (args: string[]) => processRunner.run(["git", "-c", "core.hooksPath=/dev/null", ...(await identity(top)), ...args], { cwd: top, timeoutMs: 60_000 });
  await git(["add", "--all"]);
  const staged = (await git(["diff", "--cached", "--quiet"])).exitCode === 1;
  if (staged) {
    if (!opts.message?.trim()) {
      await git(["reset", "--quiet"]);
      throw new OrgError('say what you tried: org submit -m "raised the learning rate to 0.04" (nothing was committed)', "no-message");
    }
    const commit = await git(["commit", "--quiet", "--no-verify", "-m", opts.message]);
    if (commit.exitCode !== 0) throw new OrgError(`git commit failed: ${commit.stderr.trim()}`, "git");
  }
  const head = (await git(["rev-parse", "HEAD"])).stdout.trim();
  const ledger = await readJson<AgentLedger>(join(agentPaths(paths.state, agent.name).dir, "ledger.json"));
  if (!staged && head === (ledger?.lastVerified ?? record.baseCommit)) {
    throw new OrgError(`nothing to submit: no changes since ${head.slice(0, 7)}, your last verified commit`, "nothing");
  }
  const description = opts.message?.trim() || (await git(["log", "-1", "--format=%s"])).stdout.trim();
  const now = new Date();
  const request: ExperimentRequest = {
    id: `${now.toISOString().replace(/[:.]/g, "-")}-${agent.name}-${head.slice(0, 7)}`,
    agent: agent.name, commit: head, description, kind: "candidate", submittedAt: now.toISOString(),
  };
  await writeJsonAtomic(join(paths.queue, `${request.id}.json`), request);
  io.out(`submitted ${head.slice(0, 7)} "${description}"; waiting for the verifier…`);
  const verdict = await waitForVerdict(join(paths.state, "verdicts", `${request.id}.json`), paths.daemon);
  for (const line of formatSubmitReply(verdict)) io.out(line);
  return 0;
}

async function waitForVerdict(file: string, daemonFile: string): Promise<VerdictFile> {
  for (let polls = 0; ; polls++) {
    const verdict = await readJson<VerdictFile>(file).catch(() => undefined);
    if (verdict) return verdict;
    if (polls % 40 === 39) await assertDaemonAlive(daemonFile, "the org went down while your experiment waited; it stays queued and runs at the next `org up`");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function assertDaemonAlive(daemonFile: string, message = "the org is not running — start it with `org up` (nothing was committed)"): Promise<void> {
  const daemon = await readJson<{ pid: number; heartbeatAt: string }>(daemonFile).catch(() => undefined);
  const fresh = daemon && isAlive(daemon.pid) && Date.now() - Date.parse(daemon.heartbeatAt) < HEARTBEAT_STALE_MS;
  if (!fresh) throw new OrgError(message, "down");
}

// A research repo on a fresh machine may have no git identity; the agent's commits still need one.
async function identity(dir: string): Promise<string[]> {
  const name = await processRunner.run(["git", "config", "user.name"], { cwd: dir });
  return name.exitCode === 0 && name.stdout.trim() ? [] : ["-c", "user.name=org agent", "-c", "user.email=agent@org.invalid"];
}
