import type { VerifyConfig } from "../../domain/config/index.js";
import type { AgentLedger, ExperimentRequest } from "../../domain/experiments/request.js";
import type { ExperimentOutcome, VerifierPort } from "../../domain/experiments/verifier-port.js";
import { formatHeader, formatRow, toResultStatus, type ResultRow } from "../../domain/experiments/results-table.js";
import { buildAnsweredRow, decideTried } from "../../domain/experiments/tried-answer.js";
import { originalOf, type ChangeKey, type TriedEntry } from "../../domain/experiments/tried-ledger.js";
import type { Verdict } from "../../domain/experiments/verdict.js";
import type { DiffLines } from "../../domain/experiments/diff-lines.js";
import type { KnownPatch } from "../../domain/experiments/verifier-port.js";
import { readChange } from "../../adapters/git/change-key.js";
import { appendTriedEntry, readTriedLedger } from "../../adapters/store/tried-ledger-file.js";
import { readAbRun } from "../../adapters/store/ab-run.js";
import { filterOwnHalf } from "../../domain/config-versions/ab-run-record.js";
import { verifierStorePaths } from "../../domain/paths.js";
import { hasGates } from "../../domain/experiments/gates.js";

/**
 * What the verifier does with a candidate, given the ledger:
 * run it, answer it without a run, or hold it behind its twin.
 */
export type TriedPlan =
  | { kind: "skip"; reason: string }
  | { kind: "run"; change?: ChangeKey; lines?: DiffLines; patch?: KnownPatch }
  | { kind: "answer"; verdict: Verdict; row: ResultRow; change?: ChangeKey; original?: TriedEntry }
  | { kind: "hold"; twin: string };

type Log = (line: string) => void;

/**
 * The verifier's memory of every judged change (state/tried.jsonl):
 * answers from it, holds twins, records each verdict once.
 */
export class TriedMemory {
  // The same change on the same tree in flight: the request judging it, and who waits on it.
  private readonly claims = new Map<string, { id: string; commit: string; done: Promise<void>; finish: () => void }>();
  private readonly logged = new Set<string>();
  // Agents whose candidate waits on its twin: none of their requests starts meanwhile, so their verdicts stay in order.
  private readonly held = new Set<string>();

  // The key's diff, started by prefetch as soon as the commit is in the store: the request's id, then its diff.
  private readonly early = new Map<string, { against: string; change: ReturnType<typeof readChange> }>();

  constructor(private readonly opts: { state: string; base: string; verify: VerifyConfig; log: Log }) {}

  /** Starts the diff plan reads for a candidate, beside the checkout: the journal's read need not come first. */
  prefetch(request: ExperimentRequest, ledger: AgentLedger): void {
    const against = ledger.best?.commit ?? this.opts.base;
    const none = request.kind !== "candidate" || ledger.baselineCrash !== undefined;
    if (none || request.rebased?.kind === "conflict" || against === request.commit) return;
    const change = readChange(verifierStorePaths(this.opts.state).repo, against, request.commit);
    change.catch(() => undefined);
    this.early.set(request.id, { against, change });
  }

  /**
   * Before a candidate runs: a change already judged on this tree, or none at all, is answered from the ledger without
   * a run. An answer's results row is written here, before any reset, so a daemon killed after it answers the request
   * the same.
   */
  async plan(input: {
    request: ExperimentRequest;
    ledger: AgentLedger;
    recorded?: ResultRow;
    gpu: number | null;
    port: VerifierPort;
    program?: string;
    sigma?: number;
  }): Promise<TriedPlan> {
    const { request, ledger, recorded } = input;
    if ((await this.read()).some((entry) => entry.commit === request.commit && entry.agent === request.agent))
      return { kind: "skip", reason: "in the ledger already" };
    // Nothing is tried on a broken base.
    if (ledger.baselineCrash !== undefined) return { kind: "skip", reason: "not run: the baseline crashed" };
    const against = ledger.best?.commit ?? this.opts.base;
    // A conflicting rebase has no change of its own, and a best
    // answered from its row is no change: tried, never an answer.
    if (request.rebased?.kind === "conflict" || against === request.commit) return { kind: "run" };
    // From the verifier's own store, where the loop took both: a diff in the shared one could pass for another's.
    const early = this.early.get(request.id);
    this.early.delete(request.id);
    const change = await (early?.against === against ? early.change
      : readChange(verifierStorePaths(this.opts.state).repo, against, request.commit));
    const key = change.kind === "change" ? change.key : undefined;
    const run = await readAbRun(this.opts.state);
    // verify.ledger false: every change runs, twins too; the ledger is still written, so `org tried` lists them.
    const answers = this.opts.verify.ledger;
    if (key && answers) {
      const held = this.claim(key, request, run ? String(run.b.agents.includes(request.agent)) : "");
      if (held) return held;
    }
    // Read after the claim: a twin that finished while the diff was read is in the ledger by now.
    const decision = decideTried({
      commit: request.commit,
      agent: request.agent,
      description: request.description,
      change,
      entries: answers ? filterOwnHalf(run, request.agent, await this.read()) : [],
      best: ledger.best,
      metricName: this.opts.verify.metric.name,
      goal: this.opts.verify.metric.goal,
      ...(recorded ? { recordedAt: recorded.time } : {}),
      ...(input.sigma !== undefined ? { noise: this.opts.verify.keep.k * input.sigma } : {}),
    });
    // The lines it adds from the best, as the row counts them: counted already, from the key's diff.
    // Its bytes too: a discard saves the diff from the same best, which git need not write twice.
    const patch = { from: against, bytes: change.diff };
    if (decision.kind === "run") return { kind: "run", lines: change.lines, patch, ...(key ? { change: key } : {}) };
    const extras = [...Object.keys(this.opts.verify.budgets), "lines_added", "lines_removed"];
    const gates = hasGates(this.opts.verify);
    const time = new Date().toISOString();
    const { commit, agent } = request;
    const answered = buildAnsweredRow({ commit, agent, gpu: input.gpu, decision, time, extras, gates });
    const row = recorded ?? { ...answered, ...(input.program ? { program: input.program } : {}) };
    if (!recorded)
      await input.port.appendResult(formatHeader(this.opts.verify.metric.name, extras, gates), formatRow(row));
    return {
      kind: "answer",
      verdict: decision.verdict,
      row,
      ...(key ? { change: key } : {}),
      ...(decision.original ? { original: decision.original } : {}),
    };
  }

  /**
   * The verdict's entry, before the agent's ledger moves its best:
   * a daemon killed in between computes it on the same tree.
   */
  async record(plan: TriedPlan, outcome: ExperimentOutcome, recorded?: ResultRow): Promise<void> {
    if (plan.kind === "skip" || plan.kind === "hold") return;
    const { request, verdict } = outcome;
    const answer = plan.kind === "answer" ? plan : undefined;
    const status = answer?.row.status ?? toResultStatus(verdict.kind);
    const measured = status === "keep" || status === "discard";
    const original = answer?.original && originalOf(answer.original);
    await appendTriedEntry(this.opts.state, {
      commit: request.commit,
      agent: request.agent,
      description: answer?.row.description ?? request.description,
      status,
      ...(measured && outcome.metric !== undefined ? { metric: outcome.metric } : {}),
      ...("delta" in verdict ? { delta: verdict.delta } : {}),
      reason: verdict.reason,
      ...(verdict.kind === "fail" ? { gate: verdict.gate } : {}),
      seconds: outcome.seconds,
      time: (answer?.row ?? recorded)?.time ?? new Date().toISOString(),
      ...(plan.change ? { change: plan.change } : {}),
      ...(original
        ? {
            duplicateOf: {
              commit: original.commit,
              agent: original.agent,
              status: original.status,
              description: original.description,
              seconds: original.seconds,
              ...(original.gate ? { gate: original.gate } : {}),
            },
          }
        : {}),
    });
  }

  /**
   * Whether the agent's next request waits: its candidate is held behind the same change in flight for another agent.
   */
  holds(agent: string): boolean {
    return this.held.has(agent);
  }

  /** The request is done (judged, answered or failed): a twin held behind it may go. */
  release(id: string): void {
    this.early.delete(id);
    for (const [key, claim] of this.claims) {
      if (claim.id !== id) continue;
      this.claims.delete(key);
      claim.finish();
    }
  }

  // In an A/B run each half holds only behind its own twins: the other half's run would answer nothing.
  private claim(key: ChangeKey, request: ExperimentRequest, half: string): TriedPlan | undefined {
    const name = `${half} ${key.patchId} ${key.tree}`;
    const current = this.claims.get(name);
    if (current && current.id !== request.id) {
      this.held.add(request.agent);
      void current.done.then(() => this.held.delete(request.agent));
      this.opts.log(
        `${request.agent} ${request.commit.slice(0, 7)} is the same change as ${current.commit.slice(0, 7)}, ` +
          `running now: held until its verdict answers it`,
      );
      return { kind: "hold", twin: current.commit };
    }
    let finish = () => {};
    const done = new Promise<void>((resolve) => (finish = resolve));
    this.claims.set(name, { id: request.id, commit: request.commit, done, finish });
    return undefined;
  }

  // A broken line is named once per daemon, not on every verdict; the entries that parse go on being used.
  private async read(): Promise<TriedEntry[]> {
    const { entries, problems } = await readTriedLedger(this.opts.state);
    for (const problem of problems) {
      // By file:line: a cut-short last line, ended by the next append, reads differently but is the same line.
      const where = problem.slice(0, problem.indexOf(": "));
      if (this.logged.has(where)) continue;
      this.logged.add(where);
      this.opts.log(`verifier: ${problem}`);
    }
    return entries;
  }
}
