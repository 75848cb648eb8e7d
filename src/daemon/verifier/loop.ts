import type { OrgConfig } from "../../domain/config/index.js";
import { runExperiment } from "../../domain/experiments/experiment.js";
import { requestId, type ExperimentRequest } from "../../domain/experiments/request.js";
import type { ExperimentContext, VerifierPort } from "../../domain/experiments/verifier-port.js";
import { toJudged } from "../../domain/experiments/rebase.js";
import { orgPaths } from "../../domain/paths.js";
import type { OrgRecord } from "../../domain/state.js";
import { detectNewCommits, gpuOfSlot, pickNext } from "../../domain/experiments/schedule.js";
import type { GpuProbe } from "../../domain/ports.js";
import { readStopFile } from "../../adapters/store/stop-file.js";
import { findJudgedRow } from "../../adapters/verifier/judged-row.js";
import { runConfirmation } from "../../adapters/verifier/confirmation.js";
import { JournalStore } from "../../adapters/store/journal-store.js";
import { VerifierGuard } from "./guard.js";
import { OrgHeadsReader } from "./org-heads.js";
import { rebaseOntoBest } from "./rebase-onto-best.js";
import { addToQueue, prepareQueue, removeFromQueue } from "../../adapters/store/queue.js";
import { publishVerdict, type VerdictHands } from "./publish-verdict.js";
import { scanAgents } from "./scan-agents.js";
import { readQueue } from "./read-queue.js";
import { watchPoolGpus } from "./pool-watch.js";
import { PoolKeeper } from "./pool-keeper.js";
import { cancelQueued } from "./cancel-queued.js";
import { StackRunner } from "./stack-runner.js";
import { AblationRunner } from "./ablation-runner.js";
import { writeCapacity } from "../../adapters/store/gpu-runs-file.js";
import { listCapacity } from "../../domain/experiments/gpu-runs.js";
import { TriedMemory } from "./tried-memory.js";
import { traceExperiment, traceRun, traceStep } from "./trace-run.js";
import { startEarly } from "./start-early.js";
import { readAgentProgramAt } from "../../adapters/store/ab-run.js";
import { readPooledSigma } from "../../adapters/verifier/judge-calibration.js";
import { EMPTY_LEDGER, readLedger } from "../../adapters/store/agent-ledger.js";

const HEAD_SETTLE_MS = 2000;
/** The daemon's verifier: takes requests from state/queue and plain commits, runs them by slot, records verdicts. */
export class VerifierLoop {
  private readonly paths;
  private readonly running = new Map<string, { slot: string; request: ExperimentRequest; promise: Promise<void> }>();
  private readonly aliases = new Map<string, string[]>();
  private readonly seenHeads = new Map<string, { head: string; since: number }>();
  // Requests finished during a tick are still in that tick's list: never run them twice.
  private readonly finished = new Set<string>();
  private readonly retried = new Set<string>();
  private readonly agents;
  private readonly heads;
  private readonly guard;
  private readonly pool: PoolKeeper;
  private readonly port: VerifierPort;
  private capacityWritten = false;
  private readonly tried: TriedMemory;
  private readonly stacks;
  private readonly ablations;
  private readonly abort = new AbortController();
  private readonly verdictHands: VerdictHands;

  constructor(
    private readonly record: OrgRecord,
    private readonly config: OrgConfig,
    port: VerifierPort,
    private readonly log: (line: string) => void,
    probe?: GpuProbe,
    /** The daemon's one journal, shared by the loops a reload swaps; a loop of its own is a daemon started afresh. */
    private readonly journal = new JournalStore(orgPaths(record.root).state),
    private readonly holdRuns: () => Promise<string | undefined> = async () => undefined,
  ) {
    this.pool = new PoolKeeper(record.pool, port, log, probe);
    const dropGpu = (gpu: number, reason: string) => this.pool.dropGpu(gpu, reason);
    this.port = record.pool && probe ? watchPoolGpus(port, probe, dropGpu) : port;
    this.paths = orgPaths(record.root);
    this.agents = new Map(record.agents.map((agent) => [agent.name, agent]));
    this.heads = new OrgHeadsReader(record, this.agents);
    const messages = config.messages;
    this.guard = new VerifierGuard({ record, journal: this.journal, port: this.port, say: log, messages });
    this.tried = new TriedMemory({ state: this.paths.state, base: record.baseCommit, verify: config.verify!, log });
    this.stacks = new StackRunner(record, config, this.port, log, { journal: this.journal, guard: this.guard });
    this.ablations = new AblationRunner(record, config, this.port, log, { journal: this.journal, guard: this.guard });
    this.verdictHands = {
      record, config, journal: this.journal, port: this.port, state: this.paths.state, log,
      noteBest: (commit) => this.heads.noteBest(commit),
      noteHead: (agent, head) => this.seenHeads.set(agent, { head, since: 0 }),
    };
  }

  /** One pass: enqueue baselines and plain commits, then start whatever slots allow. */
  async tick(now: Date): Promise<void> {
    const verify = this.config.verify;
    if (!verify) return;
    await prepareQueue(this.paths.state);
    await this.pool.checkOnce();
    const listing = await this.heads.read(now.getTime());
    // Before anything is judged: the record is the verifier's, and the org best where it put it.
    await this.guard.check(listing.best)
      .catch((error: Error) => this.log(`verifier: checking the journal: ${error.message}`));
    // Once per loop: a reload that changes the agents starts a new loop, and so rewrites it.
    const capacity = () => listCapacity(this.record.agents, verify.parallel, this.record.pool);
    if (!this.capacityWritten) await writeCapacity(this.paths.state, capacity());
    this.capacityWritten = true;
    const running = () => [...this.running.values()].map((run) => run.request);
    const pending = await readQueue(this.paths.state, this.agents, running, this.aliases);
    const unfinished = () => pending.filter((request) => !this.finished.has(request.id));
    const stop = await readStopFile(this.paths.state);
    // Stopped by a GPU-hour or cost limit: nothing new is queued or started, confirmations excepted.
    if (stop?.kind === "stop" && stop.cancel) {
      const kept = await cancelQueued({
        pending, keep: (request) => this.running.has(request.id) || this.finished.has(request.id),
        aliases: (id) => this.aliases.get(id) ?? [],
        reason: stop.reason, now, paths: this.paths, journal: this.journal, port: this.port, log: this.log,
      });
      return this.startWhenRoom(kept, verify.parallel);
    }
    const { queuedAgents, ledgers, baselines } = await scanAgents({
      agents: this.record.agents, state: this.paths.state, active: () => [...unfinished(), ...running()],
      retried: this.retried, enqueueBaseline: (agent) => this.enqueueBaseline(agent, now),
    });
    pending.push(...baselines);
    const { heads, subjects, fresh } = listing;
    // Reused from a look moments ago, the heads may predate a move: plain commits are sought in the next fresh one.
    if (!fresh) return this.startWhenRoom(pending, verify.parallel);
    // A head counts once it stood a tick period, not two looks (ms apart when the queue wakes the loop):
    // `org submit` gets there first.
    const settled = ([agent, head]: [string, string | null]) =>
      this.seenHeads.get(agent)?.head === head && now.getTime() - this.seenHeads.get(agent)!.since >= HEAD_SETTLE_MS;
    const stable = new Map([...heads].filter(settled));
    for (const [agent, head] of heads)
      if (head && this.seenHeads.get(agent)?.head !== head) this.seenHeads.set(agent, { head, since: now.getTime() });
    const found = detectNewCommits({ heads: stable, ledgers, queuedAgents, now, subjects });
    for (const request of found) pending.push(await this.enqueue(request));
    await this.startWhenRoom(pending, verify.parallel);
  }

  // holdRuns says why no run may start (the disk below sandbox.disk.floor): the queue stays, a later look starts it.
  private async startWhenRoom(pending: ExperimentRequest[], cpuSlots: number): Promise<void> {
    this.ready = pending;
    if (!(await this.holdRuns()) && this.draining === 0 && !this.abort.signal.aborted)
      this.startRuns(pending, cpuSlots);
  }

  /** Start whatever slots allow. */
  private startRuns(pending: ExperimentRequest[], cpuSlots: number): void {
    for (;;) {
      const busySlots = new Set([...this.running.values()].map((run) => run.slot));
      const runningAgents = new Set([...this.running.values()].map((run) => run.request.agent));
      const waiting = pending.filter((request) =>
        !this.running.has(request.id) && !this.finished.has(request.id) && !this.tried.holds(request.agent));
      const slots = this.pool.readSlots(cpuSlots);
      const { agents } = this;
      const decision = pickNext({ pending: waiting, runningAgents, busySlots, agents, cpuSlots, ...slots });
      if (decision.kind === "wait") return;
      const { request, slot } = decision;
      this.pool.countStart(request.agent);
      this.running.set(request.id, { slot, request, promise: traceRun(request, () => this.execute(request, slot)) });
    }
  }

  // The last look's vetted queue: a run that ends starts the next at once, not leaving its GPU idle till the next look.
  private ready: ExperimentRequest[] = [];
  private draining = 0;

  private async startNext(): Promise<void> {
    const blocked = () => this.draining > 0 || this.abort.signal.aborted;
    if (blocked()) return;
    // Stopped by a GPU-hour or cost limit: the next look cancels what is queued, and nothing starts before it.
    const stop = await readStopFile(this.paths.state);
    if ((stop?.kind === "stop" && stop.cancel) || blocked()) return;
    await this.startWhenRoom(this.ready, this.config.verify!.parallel);
  }

  /** Shutdown: kill runs in flight; their requests stay queued for the next daemon. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.drain();
  }

  /** Wait for the runs in flight; none starts meanwhile (a reload swaps loops only between runs). */
  async drain(): Promise<void> {
    this.draining++;
    try {
      await Promise.all([...this.running.values()].map((run) => run.promise));
    } finally {
      this.draining--;
    }
  }

  private async execute(submitted: ExperimentRequest, slot: string): Promise<void> {
    const agent = this.agents.get(submitted.agent)!;
    let checkout: Promise<string> | undefined;
    try {
      // The org's own experiments in this agent's turn (a stack, an ablation's variant): their runner clears them.
      if (submitted.kind === "stack") await this.stacks.run(submitted, slot, await this.readSigma(), this.abort.signal);
      if (submitted.kind === "ablate") await this.ablations.run(submitted, slot, this.abort.signal);
      if (submitted.kind === "stack" || submitted.kind === "ablate") return void this.finished.add(submitted.id);
      // Cleaned while the commit comes in, unless its last request's end cleaned it already.
      this.port.startClean?.(slot);
      // Read now, not at tick time: the agent's previous run may have finished since.
      const ledger = (await readLedger(this.paths.state, agent.name)) ?? EMPTY_LEDGER;
      // σ and the program read files alone: they go alongside the fetch, not after it.
      const [refused, sigma, program] = await Promise.all([
        this.port.admit([submitted.commit, submitted.after, ledger.best?.commit]), this.readSigma(),
        readAgentProgramAt(this.paths.state, submitted.agent, submitted.submittedAt),
      ]);
      const rebase = { port: this.port, state: this.paths.state, base: this.record.baseCommit, log: this.log };
      const request = toJudged(refused ? submitted : await rebaseOntoBest(rebase, submitted, ledger, slot));
      // The checkout, the key's diff and what changed since the base, made while the ledger and the row are looked up.
      checkout = refused ? undefined : startEarly(this.port.prepareCheckout(slot, request.commit));
      if (!refused) this.tried.prefetch(request, ledger);
      const own = request.kind !== "baseline" && !refused && request.rebased?.kind !== "conflict";
      const changed = own ? startEarly(this.port.changedPaths(this.record.baseCommit, request.commit)) : undefined;
      // Judged once already (by a daemon killed before it cleared the request, or under an earlier request): answer
      // from that row.
      const judged = { repo: this.record.repo, state: this.paths.state, request };
      const findRow = async () => findJudgedRow({ ...judged, journal: await this.journal.read() });
      const recorded = await traceStep("judged", findRow);
      // Every row goes through the journal: one the verifier did not seal would read as forged.
      const port = this.guard.journalRows(this.port, request);
      const plan = () => this.tried.plan({ request, ledger, recorded, gpu: gpuOfSlot(slot), port, program, sigma });
      const tried = request.kind === "candidate" && !refused ? await traceStep("tried", plan) : undefined;
      if (tried?.kind === "hold") return;
      const context: ExperimentContext = {
        verify: this.config.verify!, baseCommit: this.record.baseCommit, slot, ledger,
        agent: {
          name: agent.name, branch: agent.branch, worktree: agent.worktree, gpu: gpuOfSlot(slot),
          edits: this.config.roles[agent.role]?.edits ?? [],
        },
        runsDir: this.paths.runs, patchesDir: this.paths.patches, now: () => new Date(), signal: this.abort.signal,
        sigma,
        ...(tried?.kind === "answer" ? { recorded: tried.row, answer: tried.verdict } : { recorded }),
        program, ...(refused ? { refused } : {}), ...(checkout ? { checkout } : {}), ...(changed ? { changed } : {}),
        ...(tried?.kind === "run" && tried.lines ? { lines: tried.lines } : {}),
        ...(tried?.kind === "run" && tried.patch ? { patch: tried.patch } : {}),
      };
      if (request.kind === "confirm") {
        await runConfirmation(this.port, context, request, this.paths.state);
        this.log(`confirm: ${request.commit.slice(0, 7)} re-run ${request.runs ?? 0} times for ${agent.name}`);
        await removeFromQueue(this.paths.state, request.id);
        return void this.finished.add(request.id);
      }
      const outcome = await traceExperiment(() => runExperiment(port, context, request));
      if (tried) await this.tried.record(tried, outcome, recorded);
      await this.stacks.offer(request, ledger, outcome);
      await publishVerdict(this.verdictHands, request, outcome, this.aliases.get(request.id) ?? []);
      this.finished.add(request.id);
    } catch (error) {
      // The request file stays: the next daemon retries it rather than lose the experiment.
      this.log(`verifier: ${submitted.id}: ${(error as Error).message}`);
    } finally {
      // An early checkout no run took is still settled before the slot is free: two would race in one folder.
      await checkout?.catch(() => undefined);
      // Cleaned as it ends, off the next request's path (the port knows when a run of it may still write there).
      if (!this.abort.signal.aborted) this.port.cleanAfterRun?.(slot);
      this.tried.release(submitted.id);
      this.running.delete(submitted.id);
      // Only after a verdict: a request that failed waits for the next look rather than retry at once, in a loop.
      if (this.finished.has(submitted.id))
        void this.startNext().catch((error: Error) => this.log(`verifier: ${error.message}`));
    }
  }

  /** σ pooled over every agent's baseline repeats (and a judge's calibration repeats). */
  private async readSigma(): Promise<number | undefined> {
    const ledgers = await Promise.all(this.record.agents.map((agent) => readLedger(this.paths.state, agent.name)));
    return readPooledSigma(this.paths.state, this.config.verify, ledgers);
  }

  private enqueueBaseline(agent: string, now: Date): Promise<ExperimentRequest> {
    return this.enqueue({ id: requestId(now, agent, "baseline"), agent, commit: this.record.baseCommit,
      description: "baseline", kind: "baseline", submittedAt: now.toISOString() });
  }

  private async enqueue(request: ExperimentRequest): Promise<ExperimentRequest> {
    await addToQueue(this.paths.state, request);
    return request;
  }
}
