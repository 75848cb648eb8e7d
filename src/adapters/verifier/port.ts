import { mkdir, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { OrgError } from "../../org/errors.js";
import type { VerifierPort } from "../../org/experiments/experiment.js";
import type { MessageSettings, SlurmConfig } from "../../org/config/schema.js";
import { readMessageSettings } from "../../org/messages/mail-port.js";
import { describeDiskFull, isDiskFull } from "../fs/disk-space.js";
import { appendLines, readText } from "../fs/files.js";
import { sendMessage } from "../store/inbox.js";
import { readStartTicks, type ChildRecords } from "../child-records.js";
import { recordRunEnd, recordRunStart } from "../store/gpu-runs.js";
import { processRunner, type Runner } from "../process.js";
import { filterAgentEnv } from "../../org/lifecycle/secrets.js";
import { endedByTimeLimit, slurmPoolRunArgv, slurmVerifyArgv } from "../../org/slurm/argv.js";
import { slurmAgentPaths } from "../../org/slurm/paths.js";
import { logPath } from "../../org/paths.js";
import { runGit } from "../git/run.js";
import { listChangedPaths } from "../git/changed-paths.js";
import { resetAgentBranch } from "../git/reset-branch.js";
import { createResultsAppender } from "../store/results-file.js";

const GIT_CONFIG = ["core.hooksPath=/dev/null", "gc.auto=0", "advice.detachedHead=false"];

/** The verifier's git and process work for one org: checkouts live under state/verifier, never in a worktree. */
export function createVerifierPort(opts: {
  repo: string; state: string; runner?: Runner; messages?: MessageSettings; backend?: "local" | "slurm"; children?: ChildRecords;
  /** Under Slurm with verify.gpus: pool: every run is a job of its own. */
  slurmPool?: { org: string; settings: SlurmConfig };
  /** The daemon's log: an agent's worktree whose .git no longer points where org put it is named there. */
  say?: (line: string) => void;
}): VerifierPort {
  const runner = opts.runner ?? processRunner;
  const git = async (cwd: string, args: string[], allowFailure = false) => {
    const result = await runGit(args, { cwd, config: GIT_CONFIG, timeoutMs: 120_000, runner });
    if (result.exitCode !== 0 && !allowFailure) throw new Error(`git ${args.join(" ")} failed in ${cwd}: ${result.stderr.trim()}`);
    return result;
  };
  return {
    async prepareCheckout(slot, commit) {
      const checkout = join(opts.state, "verifier", slot);
      const exists = (await git(checkout, ["rev-parse", "--is-inside-work-tree"], true).catch(() => ({ exitCode: 1 }))).exitCode === 0;
      if (!exists) {
        await git(opts.repo, ["worktree", "prune"]);
        await git(opts.repo, ["worktree", "add", "--force", "--detach", checkout, commit]);
      }
      // Whatever a previous run or an intruder left in the checkout goes: the run sees exactly the commit.
      await git(checkout, ["checkout", "--force", "--detach", commit]);
      await git(checkout, ["clean", "-ffdx", "--quiet"]);
      return checkout;
    },
    changedPaths: (from, to) => listChangedPaths(opts.repo, from, to, { config: GIT_CONFIG, timeoutMs: 120_000, runner }),
    async restoreProtected(checkout, baseCommit, paths) {
      for (const path of paths) {
        // A protected path absent from base has nothing to restore.
        const known = await git(checkout, ["cat-file", "-e", `${baseCommit}:${path}`], true);
        if (known.exitCode === 0) await git(checkout, ["checkout", baseCommit, "--", path]);
      }
    },
    async runCommand(command, options) {
      await mkdir(join(options.logFile, ".."), { recursive: true });
      await writeFile(options.logFile, "");
      const pool = opts.backend === "slurm" ? opts.slurmPool : undefined;
      const { argv, env, note } = pool ? placeInPoolJob(pool, command, options) : opts.backend === "slurm" ? await placeInJob(opts.state, command, options) : { argv: command, env: options.env, note: undefined };
      if (note) await appendLines(options.logFile, [note]);
      // Verify runs never see the secrets the daemon holds for agents.
      // Recorded on disk while it runs: a daemon killed meanwhile leaves it to the next one, which ends it.
      const id = basename(options.logFile, ".log");
      const ticket = opts.children?.announce("verify", `verify run ${id} in ${basename(options.cwd)}`, true);
      let start: string | undefined;
      const result = await runner.run(argv, {
        cwd: options.cwd, env: { ...filterAgentEnv(process.env), ...env, ...ticket?.env }, cleanEnv: true, timeoutMs: pool ? undefined : options.timeoutMs, outputFile: options.logFile, killGraceMs: 2000, signal: options.signal, reapGroup: true,
        onSpawn: (pid) => {
          ticket?.started(pid);
          if (pid === undefined) return;
          start = new Date().toISOString();
          recordRunStart(opts.state, { id, ...options.run, start, pid, ticks: readStartTicks(pid) });
        },
        onExit: (pid) => ticket?.ended(pid),
      });
      // The whole interval in one line: a killed daemon loses at most the run in flight.
      if (start) await recordRunEnd(opts.state, { id, ...options.run, start, end: new Date().toISOString() });
      // With the disk full the run's output, and so its metric, is lost: keep the request queued rather than record a false crash.
      if (await isDiskFull(options.logFile)) throw new OrgError(`${await describeDiskFull(options.logFile, { what: `the run's output in ${options.logFile} could not be saved` })}; the experiment stays queued and runs again`, "disk-full");
      if (result.spawnError) await appendLines(options.logFile, [`org: could not start ${argv[0]}: ${result.spawnError}`]);
      const timedOut = result.timedOut || (pool !== undefined && result.exitCode !== 0 && endedByTimeLimit((await readText(options.logFile)) ?? ""));
      return { exitCode: result.exitCode, signal: result.signal, timedOut, durationMs: result.durationMs, aborted: result.aborted, ...(result.spawnError ? { spawnError: result.spawnError } : {}) };
    },
    async readLog(logFile) {
      return (await readText(logFile)) ?? "";
    },
    async diffStat(from, to) {
      const out = (await git(opts.repo, ["diff", "--numstat", from, to])).stdout;
      let added = 0;
      let removed = 0;
      for (const line of out.split("\n").filter(Boolean)) {
        // Binary files show "-": they add no lines of code.
        const [plus, minus] = line.split("\t");
        added += Number(plus) || 0;
        removed += Number(minus) || 0;
      }
      return { added, removed };
    },
    async savePatch(from, to, file) {
      await mkdir(join(file, ".."), { recursive: true });
      await writeFile(file, (await git(opts.repo, ["diff", "--binary", from, to])).stdout);
    },
    async branchHead(branch) {
      const result = await git(opts.repo, ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`], true);
      return result.exitCode === 0 ? result.stdout.trim() : undefined;
    },
    resetBranch: (agent, commit, rescue) => resetAgentBranch(opts.repo, agent, commit, rescue, opts.say ?? (() => {})),
    appendResult: createResultsAppender(join(opts.state, "results.tsv")),
    async appendLog(entry) {
      await appendLines(logPath(opts.state), [entry]);
    },
    async appendInbox(agent, text, extra) {
      await sendMessage(opts.state, { from: "verifier", to: [agent], kind: "verdict", body: text, ...(extra ? { extra } : {}) }, opts.messages ?? readMessageSettings(undefined));
    },
  };
}

/** Under Slurm with a pool, a run is its own job of one GPU: Slurm picks the GPU and sets CUDA_VISIBLE_DEVICES. */
function placeInPoolJob(pool: { org: string; settings: SlurmConfig }, argv: string[], options: { cwd: string; env: Record<string, string>; timeoutMs: number }): { argv: string[]; env: Record<string, string>; note?: string } {
  const env = Object.fromEntries(Object.entries(options.env).filter(([key]) => key !== "CUDA_VISIBLE_DEVICES"));
  return { argv: slurmPoolRunArgv(pool.org, pool.settings, { argv, cwd: options.cwd, timeoutMs: options.timeoutMs }), env };
}

/** Under Slurm a run is a step of the agent's own job, on its GPU; with no running job it runs here, and says so. */
async function placeInJob(state: string, argv: string[], options: { cwd: string; env: Record<string, string> }): Promise<{ argv: string[]; env: Record<string, string>; note?: string }> {
  const agent = options.env.ORG_AGENT ?? "";
  const record = JSON.parse((await readText(slurmAgentPaths(state, agent).job)) ?? "null") as { id?: string; status?: string; job?: { kind?: string } } | null;
  if (record?.id && record.job?.kind === "running") {
    // Slurm sets CUDA_VISIBLE_DEVICES in the step from the job's allocation.
    const env = Object.fromEntries(Object.entries(options.env).filter(([key]) => key !== "CUDA_VISIBLE_DEVICES"));
    return { argv: slurmVerifyArgv(record.id, { argv, cwd: options.cwd }), env };
  }
  return { argv, env: options.env, note: `org: ${agent}'s Slurm job is not running (${record?.status ?? "no job"}); this run is on the submitting host` };
}
