// What the verifier is doing, for `org status`, `org watch` and `org up`: its queue, the baselines, a crashed base.
import type { ExperimentRequest } from "../experiments/request.js";
import type { LedgerView } from "../experiments/ledger-view.js";
import type { RunStarted } from "../experiments/gpu-runs.js";

export interface CrashedBaseline {
  agent: string;
  reason: string;
  /** The last run's log, when the ledger names it. */
  log?: string;
}

export interface VerifierView {
  /** Experiments with a verify run in progress. */
  running: number;
  /** Experiments waiting in state/queue with no run in progress. */
  queued: number;
  /** Agents whose baseline measured the base, of all the org's agents. */
  baselines: { done: number; total: number };
  crashed: CrashedBaseline[];
}

export interface VerifierInput {
  agents: readonly string[];
  /** The requests in state/queue, running or not. */
  queue: readonly Pick<ExperimentRequest, "id" | "agent" | "kind">[];
  /** Verify runs started and not ended, whose process still lives. */
  running: readonly Pick<RunStarted, "id" | "agent">[];
  ledgers: ReadonlyMap<string, LedgerView | undefined>;
}

/** A run's log is named after its request (`<id>.log`, then `<id>-run2.log`…): so a run finds its request. */
export function buildVerifierView(input: VerifierInput): VerifierView {
  const runs = (request: Pick<ExperimentRequest, "id">) =>
    input.running.some((run) => run.id === request.id || run.id.startsWith(`${request.id}-run`));
  const running = input.queue.filter(runs).length;
  const crashed: CrashedBaseline[] = [];
  let done = 0;
  for (const agent of input.agents) {
    const ledger = input.ledgers.get(agent);
    const log = ledger?.baselineLog ? { log: ledger.baselineLog } : {};
    if (ledger?.baselineCrash !== undefined) crashed.push({ agent, reason: ledger.baselineCrash, ...log });
    else if (ledger?.baseline !== undefined || ledger?.best) done += 1;
  }
  return { running, queued: input.queue.length - running, baselines: { done, total: input.agents.length }, crashed };
}

/** What `org up --wait` waits for: every baseline judged, and whether the base measured at all. */
export type BaselineWait =
  | { kind: "waiting" }
  | { kind: "measured"; reason: string }
  | { kind: "broken"; reason: string };

/** Once every baseline is judged: one that measured is a base to work on; all crashed, the org cannot work. */
export function decideBaselineWait(view: VerifierView): BaselineWait {
  const { done, total } = view.baselines;
  if (done + view.crashed.length < total) return { kind: "waiting" };
  const crashed = view.crashed.length > 0 ? `; ${view.crashed.length} crashed` : "";
  if (done > 0) return { kind: "measured", reason: `baselines ${done}/${total}: the base measures${crashed}` };
  if (view.crashed.length === 0) return { kind: "measured", reason: "no agent has a baseline to wait for" };
  const fix = "fix the verify command or verify.metric.pattern (`org validate`), then `org down && org up`";
  return { kind: "broken", reason: `every baseline crashed (${total}/${total}), so no experiment can run — ${fix}` };
}
