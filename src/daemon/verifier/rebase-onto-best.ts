import type { AgentLedger, ExperimentRequest } from "../../domain/experiments/request.js";
import type { VerifierPort } from "../../domain/experiments/verifier-port.js";
import { decideRebase, describeConflict } from "../../domain/experiments/rebase.js";
import { rebaseChange } from "../../adapters/git/rebase-change.js";
import { rewriteQueued } from "../../adapters/store/queue.js";

/**
 * A candidate queued on top of one that is not the agent's best now (discarded, or kept as a rebase) runs as its own
 * change on that best. The result goes into the request file before the run: a daemon killed meanwhile judges the
 * same commit.
 */
export async function rebaseOntoBest(
  opts: { port: VerifierPort; state: string; base: string; log: (line: string) => void },
  request: ExperimentRequest, ledger: AgentLedger, slot: string,
): Promise<ExperimentRequest> {
  const decision = decideRebase(request, ledger.best?.commit ?? opts.base);
  if (decision.kind === "as-is") return request;
  const checkout = await opts.port.prepareCheckout(slot, decision.onto);
  const change = await rebaseChange(checkout, { after: decision.after, commit: request.commit }, decision.onto);
  if (change.kind === "rebased") await opts.port.publish(change.commit);
  const { onto, after } = decision;
  const from = request.commit;
  const files = change.kind === "rebased" ? [] : change.files;
  const conflict = { from, after, onto, subject: request.description, files };
  const rebased: ExperimentRequest = {
    ...request,
    rebased: change.kind === "rebased" ? { kind: "rebased", from, onto, commit: change.commit }
      : { kind: "conflict", from, onto, reason: describeConflict(conflict) },
  };
  await rewriteQueued(opts.state, rebased);
  const what = change.kind === "rebased" ? `rebased onto ${onto.slice(0, 7)} as ${change.commit.slice(0, 7)}`
    : `conflicts with ${onto.slice(0, 7)}`;
  opts.log(`${request.agent} ${from.slice(0, 7)} was made on ${after.slice(0, 7)}, not its best: ${what}`);
  return rebased;
}
