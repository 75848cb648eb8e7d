import type { OrgConfig } from "../../domain/config/index.js";
import { readRowRuns, type VariantResult } from "../../domain/ablation/index.js";
import type { ExperimentRequest } from "../../domain/experiments/request.js";
import type { ExperimentContext, RunMeasure, VerifierPort } from "../../domain/experiments/verifier-port.js";
import { hasGates } from "../../domain/experiments/gates.js";
import { summarize } from "../../domain/experiments/noise.js";
import { formatHeader, formatRow, type ResultRow } from "../../domain/experiments/results-table.js";
import { mean, measureRuns, metricsOf, seeds } from "../../domain/experiments/runs.js";
import { gpuOfSlot } from "../../domain/experiments/schedule.js";
import { STACK_AGENT } from "../../domain/experiments/stack.js";
import { TamperedError } from "../../domain/experiments/protected-files.js";
import { formatLogEntry } from "../../domain/log-entry.js";
import { orgPaths, verifierStorePaths } from "../../domain/paths.js";
import type { OrgRecord } from "../../domain/state.js";
import { removeFromQueue } from "../../adapters/store/queue.js";
import { readChange } from "../../adapters/git/change-key.js";
import { readVariantResult, writeVariantResult } from "../../adapters/store/ablation.js";
import { readAgentProgramAt } from "../../adapters/store/ab-run.js";
import type { JournalStore } from "../../adapters/store/journal-store.js";
import { appendTriedEntry, readTriedLedger } from "../../adapters/store/tried-ledger-file.js";
import { findJudgedRow } from "../../adapters/verifier/judged-row.js";
import type { VerifierGuard } from "./guard.js";
import { EMPTY_LEDGER, readLedger, writeLedger } from "../../adapters/store/agent-ledger.js";

/**
 * `org ablate`'s variants: each measured over its `repeats` seeds in its agent's turn and slot, its row org's. The
 * measure file is written before the request is cleared, and a row already written answers it: never counted twice.
 */
export class AblationRunner {
  private readonly paths;

  constructor(
    private readonly record: OrgRecord,
    private readonly config: OrgConfig,
    private readonly port: VerifierPort,
    private readonly log: (line: string) => void,
    private readonly sealed: { journal: JournalStore; guard: VerifierGuard },
  ) {
    this.paths = orgPaths(record.root);
  }

  async run(request: ExperimentRequest, slot: string, signal: AbortSignal): Promise<void> {
    const { state } = this.paths;
    if (!(await readVariantResult(state, request.commit))) {
      const result = (await this.answer(request)) ?? (await this.measure(request, slot, signal));
      await writeVariantResult(state, result);
      const what = result.crashed ?? `${this.config.verify!.metric.name} ${result.mean} over ${result.n} run(s)`;
      const body = `${what}${result.source === "runs" ? "" : ` (from the ${result.source}, not run again)`}`;
      const title = `${STACK_AGENT} ${request.commit.slice(0, 7)} ${request.description}`;
      await this.port.appendLog(formatLogEntry({ date: new Date(), op: "ablate", title, body }));
      this.log(`ablate: ${request.description}: ${what}`);
    }
    await removeFromQueue(this.paths.state, request.id);
  }

  /** A row already written for the variant (a daemon killed before its measure file), or the ledger's same change. */
  private async answer(request: ExperimentRequest): Promise<VariantResult | undefined> {
    const at = new Date().toISOString();
    const judged = { ...request, agent: STACK_AGENT };
    const row = await findJudgedRow({
      repo: this.record.repo, state: this.paths.state, request: judged,
      journal: await this.sealed.journal.read(),
    });
    // Only an ablation's own row: the target's keep (or stack) row is the lucky draw it is measured again against.
    if (row?.description.startsWith(request.description)) {
      return { commit: request.commit, source: "row", at, ...fromRow(row) };
    }
    const of = request.ablation?.of;
    const change = of ? await readChange(verifierStorePaths(this.paths.state).repo, of, request.commit) : undefined;
    if (change?.kind !== "change") return undefined;
    const { entries } = await readTriedLedger(this.paths.state);
    const same = entries.find((entry) => entry.change?.patchId === change.key.patchId
      && entry.change.tree === change.key.tree && entry.metric !== undefined && entry.status === "discard");
    if (!same) return undefined;
    // An earlier ablation's entry says over how many runs; an agent's candidate counts as its one.
    const n = readRowRuns(same.description);
    return { commit: request.commit, source: "ledger", from: same.commit, at, n, mean: same.metric! };
  }

  private async measure(request: ExperimentRequest, slot: string, signal: AbortSignal): Promise<VariantResult> {
    const verify = this.config.verify!;
    const agent = this.record.agents.find((candidate) => candidate.name === request.agent)!;
    const ledger = (await readLedger(this.paths.state, agent.name)) ?? EMPTY_LEDGER;
    const first = ledger.runs ?? 0;
    const context: ExperimentContext = {
      verify, baseCommit: this.record.baseCommit, slot, ledger, rowAgent: STACK_AGENT, sigma: undefined, signal,
      agent: { name: agent.name, branch: agent.branch, worktree: agent.worktree, gpu: gpuOfSlot(slot), edits: [] },
      runsDir: this.paths.runs, patchesDir: this.paths.patches, now: () => new Date(),
    };
    const started = Date.now();
    const refused = await this.port.admit([request.commit]);
    const count = request.runs ?? verify.repeats;
    const measured = refused ? { measures: [] as RunMeasure[], tampered: refused }
      : await measureRuns(this.port, context, request, seeds(first, count), 0).then(
        (measures) => ({ measures, tampered: undefined }),
        (error: unknown) => {
          if (error instanceof TamperedError) return { measures: [] as RunMeasure[], tampered: error.reason };
          throw error;
        });
    const { measures } = measured;
    // The agent's seed count moves on, as the variant's runs used seeds of its own.
    const now = (await readLedger(this.paths.state, agent.name)) ?? ledger;
    await writeLedger(this.paths.state, agent.name, { ...now, runs: first + measures.length });
    const samples = metricsOf(measures);
    const crashed = measured.tampered ?? describeCrash(measures);
    const { mean: average, sd, n } = summarize(samples);
    const seconds = (Date.now() - started) / 1000;
    await this.recordRow(request, slot, { measures, crashed, mean: average, n, seconds });
    const at = new Date().toISOString();
    return {
      commit: request.commit, source: "runs", at, n, samples,
      ...(crashed ? { crashed } : { mean: average, sd }),
    };
  }

  /** The variant's row by org, journaled like every verdict's, and its ledger entry: it counts in history, budgets. */
  private async recordRow(request: ExperimentRequest, slot: string,
    run: { measures: RunMeasure[]; crashed: string | undefined; mean: number; n: number; seconds: number }) {
    const verify = this.config.verify!;
    const of = request.ablation?.of;
    const lines = of ? await this.port.diffStat(of, request.commit) : { added: 0, removed: 0 };
    const extras = {
      ...Object.fromEntries(Object.keys(verify.budgets)
        .map((name) => [name, mean(run.measures.map((one) => one.budgets[name]))])),
      lines_added: lines.added, lines_removed: lines.removed,
    };
    const description = run.n > 1 ? `${request.description} (mean of ${run.n} runs)` : request.description;
    const status = run.crashed ? "crash" as const : "discard" as const;
    const program = await readAgentProgramAt(this.paths.state, request.agent, request.submittedAt);
    const time = new Date().toISOString();
    const memoryGb = Math.max(...run.measures.map((one) => one.memoryGb ?? 0), 0) || undefined;
    const row: ResultRow = {
      commit: request.commit, metric: run.crashed ? undefined : run.mean, memoryGb, status, description,
      agent: STACK_AGENT, gpu: gpuOfSlot(slot), seconds: run.seconds, time, program, extras,
      ...(hasGates(verify) ? { gate: run.measures.at(-1)?.gate?.name ?? "" } : {}),
    };
    const port = this.sealed.guard.journalRows(this.port, { ...request, agent: STACK_AGENT });
    await port.appendResult(formatHeader(verify.metric.name, Object.keys(extras), hasGates(verify)), formatRow(row));
    // Keyed like a candidate's: an agent that later submits this very revert of the best is answered from it.
    // The target measured again is no idea tried: the ledger has its keep already.
    if (of === request.commit) return;
    const change = of ? await readChange(verifierStorePaths(this.paths.state).repo, of, request.commit) : undefined;
    await appendTriedEntry(this.paths.state, {
      commit: request.commit, agent: STACK_AGENT, description, status, reason: run.crashed ?? "ablation variant",
      seconds: run.seconds, time, ...(run.crashed ? {} : { metric: run.mean }),
      ...(change?.kind === "change" ? { change: change.key } : {}),
    });
  }
}

function describeCrash(measures: RunMeasure[]): string | undefined {
  const last = measures.at(-1);
  if (!last) return "no run";
  if (last.gate) return `gate ${last.gate.name} failed; log ${last.logFile}`;
  if (last.outcome.exitCode === 0 && last.metric !== undefined) return undefined;
  const how = last.outcome.timedOut ? "timed out" : `exited ${last.outcome.exitCode ?? last.outcome.signal}`;
  return `run ${measures.length} ${how}${last.metric === undefined ? " with no metric" : ""}; log ${last.logFile}`;
}

function fromRow(row: ResultRow): Pick<VariantResult, "n" | "mean" | "crashed"> {
  if (row.metric === undefined || row.status === "crash" || row.status === "reject" || row.status === "fail") {
    return { n: 0, crashed: `${row.status} (recorded in results.tsv at ${row.time})` };
  }
  return { n: readRowRuns(row.description), mean: row.metric };
}
