import type { OrgConfig } from "../../domain/config/index.js";
import { judgeAndRecord } from "../../domain/experiments/experiment.js";
import type { AgentLedger, ExperimentRequest } from "../../domain/experiments/request.js";
import type { ExperimentContext, ExperimentOutcome, VerifierPort } from "../../domain/experiments/verifier-port.js";
import type { Frontier } from "../../domain/experiments/frontier.js";
import type { Verdict } from "../../domain/experiments/verdict.js";
import { verdictOfRow } from "../../domain/experiments/recover.js";
import { gpuOfSlot } from "../../domain/experiments/schedule.js";
import {
  checkStackPaths, decideStackOffer, decideStackTarget, describeStack, describeStackConflict, STACK_AGENT,
  toStackRequest, type StackAttempt, type StackDecision,
} from "../../domain/experiments/stack.js";
import { formatLogEntry } from "../../domain/log-entry.js";
import { orgPaths, verifierStorePaths } from "../../domain/paths.js";
import type { OrgRecord } from "../../domain/state.js";
import { isAncestor } from "../../adapters/git/ancestry.js";
import { rebaseChange } from "../../adapters/git/rebase-change.js";
import { addToQueue, listQueue, removeFromQueue, rewriteQueued } from "../../adapters/store/queue.js";
import { readStackAttempts, recordStackAttempt } from "../../adapters/store/stacks.js";
import { advanceFrontier } from "../../adapters/verifier/frontier-writer.js";
import { readFrontier } from "../../adapters/store/frontier-file.js";
import { findHalf } from "../../domain/config-versions/ab-run-record.js";
import { findJudgedRow } from "../../adapters/verifier/judged-row.js";
import type { JournalStore } from "../../adapters/store/journal-store.js";
import { readAbRun, readAgentProgramAt } from "../../adapters/store/ab-run.js";
import type { VerifierGuard } from "./guard.js";
import { EMPTY_LEDGER, readLedger, writeLedger } from "../../adapters/store/agent-ledger.js";

/**
 * The verifier's stacks: a keep that improves its agent's best but not the org's has its change tried on the org
 * best, queued as a request of that agent's (its turn, its slot), judged by the keep rule against the org best;
 * no branch moves.
 */
export class StackRunner {
  private readonly paths;

  constructor(
    private readonly record: OrgRecord,
    private readonly config: OrgConfig,
    private readonly port: VerifierPort,
    private readonly log: (line: string) => void,
    // The journal seals the stack's row and its move of the org best, as it does every verdict's.
    private readonly sealed: { journal: JournalStore; guard: VerifierGuard },
  ) {
    this.paths = orgPaths(record.root);
  }

  /**
   * Called before the keep's ledger is written: a daemon killed in
   * between still knows the previous best, and queues it again.
   */
  async offer(request: ExperimentRequest, before: AgentLedger, outcome: ExperimentOutcome): Promise<void> {
    const verify = this.config.verify!;
    const frontier = await this.readFrontier(request.agent);
    const offer = decideStackOffer({
      enabled: verify.stack,
      request,
      verdict: outcome.verdict,
      after: before.best?.commit,
      frontier,
      goal: verify.metric.goal,
      metricName: verify.metric.name,
    });
    if (offer.kind === "skip") return;
    const decision = await this.decideTarget(request.commit, frontier);
    if (decision.kind === "skip")
      return this.log(`stack: ${request.agent} ${request.commit.slice(0, 7)} not stacked: ${decision.reason}`);
    if ((await listQueue(this.paths.state)).some((other) => other.kind === "stack" && other.commit === request.commit))
      return;
    const stack = toStackRequest({
      agent: request.agent,
      kept: request.commit,
      after: offer.after,
      target: decision.target,
      now: new Date(),
    });
    await addToQueue(this.paths.state, stack);
    this.log(`stack: queued ${stack.description} (${request.agent}'s keep)`);
  }

  /**
   * One queued stack, start to end, its request file cleared last:
   * a daemon killed on the way judges the same combination once.
   */
  async run(queued: ExperimentRequest, slot: string, sigma: number | undefined, signal: AbortSignal): Promise<void> {
    const request = queued.rebased ? queued : await this.apply(queued, slot);
    const tried =
      request?.rebased &&
      (await readStackAttempts(this.paths.state)).some(
        (attempt) => attempt.kept === request.commit && attempt.onto === request.rebased!.onto,
      );
    if (request?.rebased && !tried) await this.judge(request, request.rebased, slot, sigma, signal);
    await removeFromQueue(this.paths.state, queued.id);
  }

  /**
   * The change made again on the org best of now, written into the
   * request before anything runs; undefined when it is not to be stacked.
   */
  private async apply(queued: ExperimentRequest, slot: string): Promise<ExperimentRequest | undefined> {
    const decision = queued.after
      ? await this.decideTarget(queued.commit, await this.readFrontier(queued.agent))
      : { kind: "skip" as const, reason: "its request names no previous best" };
    if (decision.kind === "skip")
      return void this.log(`stack: ${queued.agent} ${queued.commit.slice(0, 7)} not stacked: ${decision.reason}`);
    const { onto } = decision.target;
    const refused = await this.port.admit([queued.commit, queued.after!, onto]);
    if (refused) return void this.log(`stack: ${queued.agent} ${queued.commit.slice(0, 7)} not stacked: ${refused}`);
    const checkout = await this.port.prepareCheckout(slot, onto);
    const change = await rebaseChange(checkout, { after: queued.after!, commit: queued.commit }, onto);
    // The combination is the verifier's own commit: the org best may move to it in the research repo.
    if (change.kind === "rebased") await this.port.publish(change.commit);
    const request: ExperimentRequest = {
      ...queued,
      description: describeStack(queued.commit, onto),
      stack: decision.target,
      rebased:
        change.kind === "rebased"
          ? { kind: "rebased", from: queued.commit, onto, commit: change.commit }
          : {
              kind: "conflict",
              from: queued.commit,
              onto,
              reason: describeStackConflict({ kept: queued.commit, agent: queued.agent, onto, files: change.files }),
            },
    };
    await rewriteQueued(this.paths.state, request);
    return request;
  }

  private async judge(
    request: ExperimentRequest,
    rebased: NonNullable<ExperimentRequest["rebased"]>,
    slot: string,
    sigma: number | undefined,
    signal: AbortSignal,
  ): Promise<void> {
    if (rebased.kind === "conflict") return this.settle(request, { outcome: "conflict", reason: rebased.reason });
    const verify = this.config.verify!;
    const agent = this.record.agents.find((candidate) => candidate.name === request.agent)!;
    const target = request.stack!;
    const combination = rebased.commit;
    // What the stack adds to the org best is the agent's change: it answers to that agent's role, like its candidates.
    const paths = checkStackPaths(await this.port.changedPaths(target.onto, combination), {
      protected: verify.protected,
      edits: this.config.roles[agent.role]?.edits ?? [],
    });
    if (paths.kind === "skip")
      return this.settle(request, { outcome: paths.outcome, reason: paths.reason, commit: combination });
    const judged: ExperimentRequest = { ...request, commit: combination };
    const ledger = (await readLedger(this.paths.state, agent.name)) ?? EMPTY_LEDGER;
    const best = { commit: target.onto, metric: target.metric, runs: target.runs };
    const recorded = await findJudgedRow({
      repo: this.record.repo,
      state: this.paths.state,
      request: { ...judged, agent: STACK_AGENT },
      journal: await this.sealed.journal.read(),
    });
    // Judged as the org's: against the org best, its row by org; the edits
    // were checked above, so only protected paths are checked again.
    const context: ExperimentContext = {
      verify,
      baseCommit: this.record.baseCommit,
      slot,
      ledger: { best, lastVerified: null, runs: ledger.runs },
      rowAgent: STACK_AGENT,
      agent: { name: agent.name, branch: agent.branch, worktree: agent.worktree, gpu: gpuOfSlot(slot), edits: [] },
      runsDir: this.paths.runs,
      patchesDir: this.paths.patches,
      now: () => new Date(),
      signal,
      sigma,
      program: await readAgentProgramAt(this.paths.state, request.agent, request.submittedAt),
    };
    const { verdict, samples } = recorded
      ? { verdict: verdictOfRow(recorded, judged, best, verify.metric.goal), samples: [] }
      : await this.measure(context, judged, agent.name);
    if (verdict.kind === "keep") {
      await advanceFrontier({
        record: this.record,
        journal: this.sealed.journal,
        goal: verify.metric.goal,
        metricName: verify.metric.name,
        notify: (to, text) => this.port.appendInbox(to, text),
        candidate: {
          commit: combination,
          metric: verdict.metric,
          agent: STACK_AGENT,
          ...(samples.length > 0 ? { runs: samples.length } : {}),
        },
        owner: request.agent,
      });
    }
    const advanced = verdict.kind === "keep" && (await this.readFrontier(request.agent))?.commit === combination;
    const frontier =
      verdict.kind !== "keep"
        ? ""
        : advanced
          ? "\nthe org best advanced to it"
          : "\nthe org best has moved on since: it stays";
    await this.settle(request, { outcome: verdict.kind, reason: `${verdict.reason}${frontier}`, commit: combination });
  }

  /** Runs, the keep rule and the row; the agent's seed count moves on, as its runs used seeds of its own. */
  private async measure(
    context: ExperimentContext,
    request: ExperimentRequest,
    agent: string,
  ): Promise<{ verdict: Verdict; samples: number[] }> {
    const result = await judgeAndRecord(
      this.sealed.guard.journalRows(this.port, { ...request, agent: STACK_AGENT }),
      context,
      request,
      Date.now(),
    );
    const ledger = (await readLedger(this.paths.state, agent)) ?? EMPTY_LEDGER;
    await writeLedger(this.paths.state, agent, { ...ledger, runs: result.seed });
    return result;
  }

  /** log.md says what came of the stack, then stacks.jsonl remembers the pair so it is never tried again. */
  private async settle(
    request: ExperimentRequest,
    result: Pick<StackAttempt, "outcome" | "reason" | "commit">,
  ): Promise<void> {
    const onto = request.rebased!.onto;
    const judged = result.outcome !== "conflict" && result.outcome !== "paths" && result.outcome !== "empty";
    const title = `${STACK_AGENT} ${judged ? `${result.commit!.slice(0, 7)} ` : ""}` +
      `${describeStack(request.commit, onto)} (${request.agent}'s keep)`;
    await this.port.appendLog(
      formatLogEntry({ date: new Date(), op: judged ? result.outcome : "stack", title, body: result.reason }),
    );
    await recordStackAttempt(this.paths.state, { kept: request.commit, onto, ...result, at: new Date().toISOString() });
    this.log(`stack: ${describeStack(request.commit, onto)}: ${result.reason.split("\n")[0]}`);
  }

  private async decideTarget(kept: string, frontier: Frontier | undefined): Promise<StackDecision> {
    // Ancestry from the verifier's store, where both were judged: one rewritten in the shared store names any parents.
    const store = verifierStorePaths(this.paths.state).repo;
    const ancestry = frontier && {
      bestHoldsKept: await isAncestor(store, kept, frontier.commit),
      keptHoldsBest: await isAncestor(store, frontier.commit, kept),
    };
    return decideStackTarget({
      kept,
      frontier,
      bestRuns: await this.readBestRuns(frontier),
      tried: await readStackAttempts(this.paths.state),
      ancestry,
    });
  }

  // The keep rule weighs the best's own noise: a frontier set by an agent's keep has its runs in that agent's ledger.
  private async readBestRuns(frontier: Frontier | undefined): Promise<number> {
    if (!frontier) return 1;
    if (frontier.runs !== undefined) return frontier.runs;
    const best = (await readLedger(this.paths.state, frontier.agent))?.best;
    return best?.commit === frontier.commit ? (best.runs ?? 1) : 1;
  }

  // In an A/B run a keep stacks onto its own half's best only.
  private async readFrontier(agent: string): Promise<Frontier | undefined> {
    return readFrontier(this.paths.state, findHalf(await readAbRun(this.paths.state), agent));
  }
}
