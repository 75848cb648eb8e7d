import { mkdirSync, writeFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { OrgError } from "../../domain/errors.js";
import { formatLogEntry } from "../../domain/log-entry.js";
import type { VerifierPort } from "../../domain/experiments/verifier-port.js";
import type { JudgeConfig, MessageSettings, RuntimeConfig, SlurmConfig } from "../../domain/config/index.js";
import { createJudgeRun } from "./judge-run.js";
import { appendJudgeRun } from "./judge-usage-store.js";
import type { JudgeRunRecord } from "../../domain/judge/index.js";
import { readMessageSettings } from "../../domain/messages/mail-port.js";
import { describeDiskFull, isDiskFull } from "../fs/disk-space.js";
import { appendLines, readText } from "../fs/files.js";
import { sendMessage } from "../store/inbox-files.js";
import type { ChildRecords } from "../child-records.js";
import { recordRunEnd, recordRunStart } from "../store/gpu-runs-file.js";
import { processRunner, readStartTicks, type Runner } from "../process.js";
import { filterAgentEnv } from "../../domain/lifecycle/secrets.js";
import {
  endedByTimeLimit, failedNodeOf, isNodeDown, nodeStateArgv, slurmPoolRunArgv, slurmVerifyArgv,
} from "../../domain/slurm/job-argv.js";
import { readJobRecord } from "../../domain/slurm/slurm-job-file.js";
import { filesPort } from "../fs/files-port.js";
import { logPath, verifierStorePaths } from "../../domain/paths.js";
import { runGit } from "../git/run.js";
import { listChangedPaths } from "../git/changed-paths.js";
import { resetAgentBranch } from "../git/reset-branch.js";
import { readBranchHead } from "../git/branch-head.js";
import { readCommonDir } from "../git/worktree-git-dir.js";
import { createResultsAppender } from "../store/results-file.js";
import { TamperedError } from "../../domain/experiments/protected-files.js";
import { admitCommits, publishCommit } from "../git/verifier-store.js";
import { openVerifierObjects } from "./prepare-store.js";
import { createSlotCheckouts } from "./slot-checkouts.js";
import { checkProtectedFiles, recordProtectedHashes } from "./protected-check.js";
import { reportIncidents } from "./incident-report.js";
import { planVerifyRun } from "../../domain/sandbox/verify-run.js";
import type { VerifySandbox } from "./run-sandbox.js";
import { findProgramNow } from "../probes/runtime.js";

const GIT_CONFIG = ["core.hooksPath=/dev/null", "gc.auto=0", "advice.detachedHead=false"];

/** The verifier's git and process work for one org: checkouts live under state/verifier, never in a worktree. */
export function createVerifierPort(opts: {
  repo: string; state: string; runner?: Runner;
  /** Taken into the verifier's store first, alone, when the store is made (org up made it, before any agent). */
  baseCommit?: string; messages?: MessageSettings; backend?: "local" | "slurm"; children?: ChildRecords;
  /** Under Slurm with verify.gpus: pool: every run is a job of its own. */
  slurmPool?: { org: string; settings: SlurmConfig };
  /** The daemon's log: the store's repairs, and an agent's worktree whose .git no longer points where org put it. */
  say?: (line: string) => void;
  /** Local runs only: the sandbox a run of an agent's code goes in, or none (the org's sandbox is off). */
  sandbox?: () => Promise<VerifySandbox | undefined>;
  /** org.yaml's share: the untracked paths (a .venv, data) every run needs, as every worktree has them. */
  shares?: readonly { path: string; mode: "link" | "copy" }[];
  /** verify.judge and the runtime it names: runJudge runs it, its CLI's config in the store's judge-home. */
  judge?: { config: JudgeConfig; runtime: RuntimeConfig };
}): VerifierPort {
  const runner = opts.runner ?? processRunner;
  const git = async (cwd: string, args: string[], allowFailure = false) => {
    const result = await runGit(args, { cwd, config: GIT_CONFIG, timeoutMs: 120_000, runner });
    if (result.exitCode !== 0 && !allowFailure) throw new Error(
      `git ${args.join(" ")} failed in ${cwd}: ${result.stderr.trim()}`,
    );
    return result;
  };
  const store = verifierStorePaths(opts.state);
  const tell = async (title: string, body: string) => {
    const incidents = [{ kind: "tampered" as const, title, body }];
    const say = opts.say ?? (() => {});
    await reportIncidents({ state: opts.state, agents: [], incidents, say, messages: opts.messages });
  };
  let opened: Promise<void> | undefined;
  // Made or checked once per port; the base comes in alone (one commit's tree), before anything else is asked of it.
  const open = () => (opened ??= openVerifierObjects({ ...opts, base: opts.baseCommit }).catch((error: unknown) => {
    opened = undefined;
    throw error;
  }));
  // One fetch at a time: two slots taking the same commit would race for its ref, and fail an honest commit.
  let queue: Promise<unknown> = Promise.resolve();
  // Commits this port saw taken whole (their refs are org's, never removed): asked again, no ref file is read.
  const whole = new Set<string>();
  const admit = (named: (string | undefined)[]): Promise<string | undefined> => {
    const commits = named.filter((commit) => commit !== undefined);
    if (commits.every((commit) => whole.has(commit))) return Promise.resolve(undefined);
    const next = queue.then(async () => {
      await open();
      const refused = await admitCommits(store.repo, opts.repo, commits);
      if (refused) await tell(refused, "nothing of it was run: the repo's shared store was written behind git's back");
      else for (const commit of commits) whole.add(commit);
      return refused;
    });
    queue = next.catch(() => undefined);
    return next;
  };
  const need = async (...commits: string[]) => {
    const refused = await admit(commits);
    if (refused) throw new TamperedError(refused);
  };
  const { shares } = opts;
  const checkouts = createSlotCheckouts({ dir: store.dir, store: store.repo, repo: opts.repo, git, shares });
  const port: VerifierPort = {
    async prepareCheckout(slot, commit) {
      await need(commit);
      return checkouts.prepare(slot, commit);
    },
    startClean: (slot) => checkouts.startClean(slot),
    cleanAfterRun: (slot) => checkouts.cleanAfterRun(slot),
    async changedPaths(from, to) {
      await need(from, to);
      return listChangedPaths(store.repo, from, to, { config: GIT_CONFIG, timeoutMs: 120_000, runner });
    },
    async restoreProtected(checkout, baseCommit, paths) {
      await need(baseCommit);
      const record = await recordProtectedHashes({ ...store, store: store.repo, base: baseCommit, rules: paths });
      // Every file already the base's as recorded: nothing to restore, and two git calls a path saved on every run.
      if (!(await checkProtectedFiles(checkout, record, paths))) return undefined;
      for (const path of paths) {
        // A protected path absent from base has nothing to restore.
        const known = await git(checkout, ["cat-file", "-e", `${baseCommit}:${path}`], true);
        if (known.exitCode === 0) await git(checkout, ["checkout", baseCommit, "--", path]);
      }
      const tampered = await checkProtectedFiles(checkout, record, paths);
      if (tampered) await tell(tampered, "not run: the checkout or the verifier's own store it came from changed");
      return tampered;
    },
    admit: (commits) => admit(commits),
    publish: (commit) => open().then(() => publishCommit(store.repo, opts.repo, commit)),
    async runCommand(command, options) {
      // At once: org's own folder, and every thread-pool round trip here delays the run.
      mkdirSync(join(options.logFile, ".."), { recursive: true });
      writeFileSync(options.logFile, "");
      const pool = opts.backend === "slurm" ? opts.slurmPool : undefined;
      const placed = pool ? placeInPoolJob(pool, command, options)
        : opts.backend === "slurm" ? await placeInJob(opts.state, command, options)
          : await placeInSandbox(opts.sandbox, command, options);
      const { argv, env, note, sealed } = placed;
      if (note) await appendLines(options.logFile, [note]);
      checkouts.noteRun(options.cwd, sealed === true);
      // Verify runs never see the secrets the daemon holds for agents.
      // Recorded on disk while it runs: a daemon killed meanwhile leaves it to the next one, which ends it.
      const id = basename(options.logFile, ".log");
      const ticket = opts.children?.announce("verify", `verify run ${id} in ${basename(options.cwd)}`, true);
      let start: string | undefined;
      const result = await runner.run(argv, {
        cwd: options.cwd, env: { ...filterAgentEnv(process.env), ...env, ...ticket?.env }, cleanEnv: true,
        timeoutMs: pool ? undefined : options.timeoutMs, outputFile: options.logFile, killGraceMs: 2000,
        signal: options.signal, reapGroup: true,
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
      // With the disk full the run's output, and so its metric, is lost: keep the request queued rather than record
      // a false crash.
      const what = `the run's output in ${options.logFile} could not be saved`;
      if (await isDiskFull(options.logFile)) throw new OrgError(
        `${await describeDiskFull(options.logFile, { what })}; the experiment stays queued and runs again`,
        "disk-full",
      );
      if (result.spawnError) await appendLines(options.logFile, [
        `org: could not start ${argv[0]}: ${result.spawnError}`,
      ]);
      const log = opts.backend === "slurm" ? ((await readText(options.logFile)) ?? "") : "";
      // The run's node went down: no verdict on a half run; the request stays queued and runs again (judged once).
      const failedNode = opts.backend === "slurm" ? failedNodeOf(log) : undefined;
      // The log holds the candidate's own output too: only Slurm's word that the node is down counts.
      if (failedNode && isNodeDown((await runner.run(nodeStateArgv(failedNode), { timeoutMs: 30_000 })).stdout)) {
        const what = `verify run ${id} of ${basename(options.cwd)}: its node ${failedNode} went down`;
        const body = "the experiment stays queued and runs again";
        await appendLines(logPath(opts.state), [formatLogEntry({ date: new Date(), op: "slurm", title: what, body })]);
        throw new OrgError(`${what}; the experiment stays queued and runs again`, "node-failure");
      }
      const timedOut = result.timedOut || (pool !== undefined && result.exitCode !== 0 && endedByTimeLimit(log));
      return {
        exitCode: result.exitCode, signal: result.signal, timedOut, durationMs: result.durationMs,
        aborted: result.aborted, ...(result.spawnError ? { spawnError: result.spawnError } : {}),
      };
    },
    async readLog(logFile) {
      return (await readText(logFile)) ?? "";
    },
    async diffStat(from, to) {
      await need(from, to);
      const out = (await git(store.repo, ["diff", "--numstat", from, to])).stdout;
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
    async savePatch(from, to, file, known) {
      await mkdir(join(file, ".."), { recursive: true });
      // The change as the shared store tells it is no record: without the commit in the store, the patch says why.
      const refused = await admit([from, to]);
      // As the tried key's diff writes it, which serves here when it is from the same commit (full hashes, no renames).
      const diff = ["diff", "--binary", "--full-index", "--no-renames", "--no-color", "--no-ext-diff", from, to];
      const patch = refused ? undefined : known ?? (await git(store.repo, diff)).stdout;
      await writeFile(file, patch ?? `# org: no patch: ${refused}\n`);
    },
    async branchHead(branch) {
      const ask = async () => {
        const result = await git(opts.repo, ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`], true);
        return result.exitCode === 0 ? result.stdout.trim() : undefined;
      };
      // Read off the ref's file when it says the commit plainly: one git process less after every discard.
      const common = await readCommonDir(opts.repo).catch(() => undefined);
      return common ? readBranchHead(common, branch, ask) : ask();
    },
    resetBranch: (agent, commit, rescue, from) =>
      resetAgentBranch(opts.repo, agent, commit, rescue, opts.say ?? (() => {}), from),
    appendResult: createResultsAppender(opts.state),
    async appendLog(entry) {
      await appendLines(logPath(opts.state), [entry]);
    },
    async appendInbox(agent, text, extra) {
      await sendMessage(
        opts.state, { from: "verifier", to: [agent], kind: "verdict", body: text, ...(extra ? { extra } : {}) },
        opts.messages ?? readMessageSettings(undefined),
      );
    },
  };
  if (!opts.judge) return port;
  const homes = join(store.dir, "judge-home");
  const runCommand = port.runCommand.bind(port);
  const runJudge = createJudgeRun({ judge: opts.judge.config, runtime: opts.judge.runtime, homes, runCommand });
  // The judge's spend is a record beside the verdict, never a reason to lose it: a failed write is said, not thrown.
  const recordJudgeRun = (run: JudgeRunRecord) => appendJudgeRun(opts.state, run)
    .catch((error: Error) => opts.say?.(`verifier: the judge's usage was not recorded: ${error.message}`));
  return { ...port, runJudge, recordJudgeRun };
}

/** Where a run goes: its argv and env, a note for its log; sealed when nothing of it outlives it. */
type Placement = { argv: string[]; env: Record<string, string>; note?: string; sealed?: boolean };

/** A local run in the org's sandbox when it is on: the candidate's code writes its checkout alone. */
async function placeInSandbox(
  sandbox: (() => Promise<VerifySandbox | undefined>) | undefined, argv: string[],
  options: { cwd: string; env: Record<string, string>; judgeHome?: string },
): Promise<Placement> {
  const layout = await sandbox?.();
  // A program not there runs nowhere: spawned as is, its error says so (in bwrap it would be a bare exit 1).
  const found = layout && findProgramNow(argv[0] ?? "", options.cwd, options.env.PATH ?? process.env.PATH);
  const judge = options.judgeHome ? { judgeHome: options.judgeHome } : {};
  if (!layout || !found) return { argv, env: options.env };
  // In bwrap's pid namespace: its every process dies with the run, so nothing of it writes into the slot after.
  return { argv: planVerifyRun({ ...layout, checkout: options.cwd, ...judge }, argv), env: options.env, sealed: true };
}

/** Under Slurm with a pool, a run is its own job of one GPU: Slurm picks the GPU and sets CUDA_VISIBLE_DEVICES. */
function placeInPoolJob(
  pool: { org: string; settings: SlurmConfig }, argv: string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs: number },
): Placement {
  const env = Object.fromEntries(Object.entries(options.env).filter(([key]) => key !== "CUDA_VISIBLE_DEVICES"));
  return {
    argv: slurmPoolRunArgv(pool.org, pool.settings, { argv, cwd: options.cwd, timeoutMs: options.timeoutMs }), env,
  };
}

/** Under Slurm a run is a step of the agent's own job, on its GPU; with no running job it runs here, and says so. */
async function placeInJob(
  state: string, argv: string[], options: { cwd: string; env: Record<string, string> },
): Promise<Placement> {
  const agent = options.env.ORG_AGENT ?? "";
  const record = await readJobRecord(filesPort, state, agent);
  if (record?.job.kind === "running") {
    // Slurm sets CUDA_VISIBLE_DEVICES in the step from the job's allocation.
    const env = Object.fromEntries(Object.entries(options.env).filter(([key]) => key !== "CUDA_VISIBLE_DEVICES"));
    return { argv: slurmVerifyArgv(record.id, { argv, cwd: options.cwd }), env };
  }
  return {
    argv, env: options.env,
    note: `org: ${agent}'s Slurm job is not running (${record?.status ?? "no job"}); `
      + "this run is on the submitting host",
  };
}
