import type { ExperimentRequest } from "../../domain/experiments/request.js";
import type { VerifierPort } from "../../domain/experiments/verifier-port.js";
import { startEarly } from "./start-early.js";

/**
 * The commits of queued requests taken into the verifier's store as soon as a look reads the queue, beside the rest
 * of that look (the org's refs, the journal's audit): the request's own admit then finds them there. Taken is not
 * judged: nothing of a commit is read or run before its request starts.
 */
export class EarlyAdmits {
  private readonly started = new Map<string, Promise<string | undefined>>();

  constructor(private readonly port: Pick<VerifierPort, "admit">) {}

  /** Starts the admit of each queued request not started yet; forgets those no longer queued. */
  start(queued: readonly ExperimentRequest[]): void {
    const ids = new Set(queued.map((request) => request.id));
    for (const id of this.started.keys()) if (!ids.has(id)) this.started.delete(id);
    for (const request of queued) {
      // The org's own experiments (a stack, an ablation) take what they need themselves.
      if (this.started.has(request.id) || request.kind === "stack" || request.kind === "ablate") continue;
      this.started.set(request.id, startEarly(this.port.admit([request.commit, request.after])));
    }
  }

  /**
   * The request's admit of `commits`: a refusal of its early one stands (told once, not fetched again); else the
   * rest is taken, which costs no git process for what the early one took.
   */
  async admit(request: ExperimentRequest, commits: (string | undefined)[]): Promise<string | undefined> {
    const early = this.started.get(request.id);
    this.started.delete(request.id);
    // A failure (a full disk) is the request's own admit's to raise again.
    const refused = early && (await early.catch(() => undefined));
    return refused ?? this.port.admit(commits);
  }
}
