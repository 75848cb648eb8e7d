import { requireContractSettings } from "../../domain/contracts/actions.js";
import { OrgError } from "../../domain/errors.js";
import { listAgents } from "../../domain/lifecycle/plan-agents.js";
import { loadConfigOrThrow } from "../../adapters/store/run-config.js";
import { reviewSprint } from "../../adapters/store/sprint-review.js";
import { findCaller } from "../../adapters/identity/find-caller.js";
import type { Io } from "../io.js";

/**
 * `org review -f review.md [--commit sha]`: the evaluator's checklist against the agreed contract, stored
 * next to it; every item passing on a commit the verifier kept closes the sprint.
 */
export async function runReview(opts: { root: string; cwd: string; file: string; commit?: string }, io: Io): Promise<number> {
  const config = await loadConfigOrThrow(opts.root);
  const settings = requireContractSettings(config);
  const caller = await findCaller(opts.root, listAgents(config));
  if (caller.kind === "agent" && caller.role !== settings.evaluator) throw new OrgError(`${caller.agent} may not review: only role ${settings.evaluator} reviews (contracts.evaluator in org.yaml) (nothing was changed)`, "not-party");
  if (opts.commit !== undefined && !/^[0-9a-f]{4,40}$/.test(opts.commit)) throw new OrgError(`--commit "${opts.commit}" is not a commit hash — give one from \`org results\`, e.g. 1a2b3c4 (nothing was changed)`, "usage");
  io.out(await reviewSprint({ root: opts.root, cwd: opts.cwd, file: opts.file, commit: opts.commit, config, settings, caller }));
  return 0;
}
