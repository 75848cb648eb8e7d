import type { ExperimentRequest } from "../../domain/experiments/request.js";
import { recordPhase, startPhase, tracePhase } from "../../adapters/trace.js";

/** One request's time in the verifier, traced (ORG_TRACE_TIMINGS): from its submit to its start, and start to end. */
export function traceRun(request: ExperimentRequest, run: () => Promise<void>): Promise<void> {
  const submitted = Date.parse(request.submittedAt);
  const detail = `${request.kind} ${request.agent} ${request.commit.slice(0, 7)}`;
  if (Number.isFinite(submitted)) recordPhase("verifier", "waited", Date.now() - submitted, detail);
  const end = startPhase("verifier", "request");
  return run().finally(() => end(detail));
}

/** runExperiment's share of a request, traced. */
export function traceExperiment<T>(run: () => Promise<T>): Promise<T> {
  return tracePhase("verifier", "experiment", run);
}

/** One of the request's own steps outside the port (the judged row, the tried ledger), traced. */
export function traceStep<T>(phase: string, run: () => Promise<T>): Promise<T> {
  return tracePhase("verifier", phase, run);
}
