// At each look, what every agent is owed before its plain commits are sought: the baseline it has not had, or a
// crashed one's retry; the others' ledgers, against which a new commit is found.
import type { AgentLedger, ExperimentRequest } from "../../domain/experiments/request.js";
import type { AgentRecord } from "../../domain/state.js";
import { hasLedger, readLedger } from "../../adapters/store/agent-ledger.js";

export interface AgentScan {
  /** Agents with a request queued or running, or a baseline queued by this scan: no plain commit is sought for them. */
  queuedAgents: Set<string>;
  ledgers: Map<string, AgentLedger>;
  /** The baselines this scan queued, in the agents' order. */
  baselines: ExperimentRequest[];
}

export async function scanAgents(input: {
  agents: readonly AgentRecord[];
  state: string;
  /** The requests not yet finished, queued or running. */
  active: () => ExperimentRequest[];
  /** The agents whose crashed baseline this daemon retried already: once per daemon. */
  retried: Set<string>;
  enqueueBaseline: (agent: string) => Promise<ExperimentRequest>;
}): Promise<AgentScan> {
  const scan: AgentScan = { queuedAgents: new Set(), ledgers: new Map(), baselines: [] };
  for (const agent of input.agents) {
    // Busy is checked before the ledger is read: with no run in flight the ledger cannot change under us.
    const mine = input.active().filter((request) => request.agent === agent.name);
    if (mine.length > 0) {
      scan.queuedAgents.add(agent.name);
      // A submit that beat the first tick still waits for its agent's baseline, which pickNext runs first.
      const owed = !mine.some(({ kind }) => kind === "baseline") && !(await hasLedger(input.state, agent.name));
      if (owed) scan.baselines.push(await input.enqueueBaseline(agent.name));
      continue;
    }
    const ledger = await readLedger(input.state, agent.name);
    // A crashed baseline is retried once per daemon: `org down && org up` after fixing the environment.
    const retry = ledger?.baselineCrash !== undefined && !input.retried.has(agent.name);
    if (ledger && !retry) scan.ledgers.set(agent.name, ledger);
    else {
      input.retried.add(agent.name);
      scan.baselines.push(await input.enqueueBaseline(agent.name));
      scan.queuedAgents.add(agent.name);
    }
  }
  return scan;
}
