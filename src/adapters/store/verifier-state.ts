// What the verifier left on disk for the views: state/queue, the runs going in gpu-runs.jsonl, each agent's ledger.
import { orgPaths } from "../../domain/paths.js";
import type { VerifierInput } from "../../domain/views/verifier.js";
import { isAlive, readStartTicks } from "../process.js";
import { hasQueue, listQueue } from "./queue.js";
import { readOpenRuns } from "./gpu-runs-file.js";
import { readLedgerTime, readLedgerView } from "./agent-ledger.js";

/**
 * The queue, the runs in progress and the ledgers of `agents`; a file cut short or missing reads as absent. Undefined
 * when no verifier has started (no verify section, or before the daemon's first look): there is none to show.
 */
export async function readVerifierInput(
  root: string, agents: readonly string[], opts: { crashedSince?: number } = {},
): Promise<VerifierInput | undefined> {
  const paths = orgPaths(root);
  if (!(await hasQueue(paths.state))) return undefined;
  const unreadable = () => undefined;
  const queue = (await listQueue(paths.state)).filter((request) => agents.includes(request.agent));
  const open = await readOpenRuns(paths.state);
  // A start with no end whose process is gone was lost with a killed daemon: no run in progress.
  const running = open.filter((run) => (run.ticks === null ? isAlive(run.pid) : readStartTicks(run.pid) === run.ticks));
  const ledgers = await Promise.all(agents.map(async (agent) => {
    const ledger = await readLedgerView(paths.state, agent).catch(unreadable);
    // A crash an earlier daemon recorded is retried by this one: not judged yet, for `org up --wait`.
    const since = opts.crashedSince;
    const stale = since !== undefined && ledger?.baselineCrash !== undefined
      && (await readLedgerTime(paths.state, agent)) < since;
    return [agent, stale ? { ...ledger, baselineCrash: undefined } : ledger] as const;
  }));
  return { agents, queue, running, ledgers: new Map(ledgers) };
}
