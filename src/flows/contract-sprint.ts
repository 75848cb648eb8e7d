import type { ContractSettings } from "../domain/config/index.js";
import { requireContractSettings, type ContractAction } from "../domain/contracts/actions.js";
import { OrgError } from "../domain/errors.js";
import { listAgents } from "../domain/lifecycle/plan-agents.js";
import { orgPaths } from "../domain/paths.js";
import { loadConfigOrThrow } from "../adapters/store/run-config.js";
import { changeContract } from "../adapters/store/contract-change.js";
import { readCurrentContract, type CurrentContract } from "../adapters/store/contracts.js";
import { reviewSprint } from "../adapters/store/sprint-review.js";
import { findCaller } from "../adapters/identity/find-caller.js";

export type ContractOutcome =
  | { kind: "changed"; message: string }
  | { kind: "status"; settings: ContractSettings; current: CurrentContract | undefined };

/**
 * `org contract draft|sign|object|status` as the caller stands: status reads the current sprint's contract, the others
 * change it and say what they did. Without a contracts section in org.yaml, nothing is read or changed.
 */
export async function actOnContract(opts: { root: string; cwd: string; action: ContractAction })
  : Promise<ContractOutcome> {
  const config = await loadConfigOrThrow(opts.root);
  const settings = requireContractSettings(config);
  const caller = await findCaller(opts.root, listAgents(config));
  if (opts.action.kind === "status") {
    return { kind: "status", settings, current: await readCurrentContract(orgPaths(opts.root).state) };
  }
  const { root, cwd, action } = opts;
  const message = await changeContract({ root, cwd, config, settings, caller, action });
  return { kind: "changed", message };
}

/**
 * `org review -f review.md [--commit sha]`: the evaluator's checklist stored beside the agreed contract; what it
 * decided, as one message. Only the evaluator's role reviews, and a commit must look like one.
 */
export async function reviewSprintAs(opts: { root: string; cwd: string; file: string; commit?: string })
  : Promise<string> {
  const config = await loadConfigOrThrow(opts.root);
  const settings = requireContractSettings(config);
  const caller = await findCaller(opts.root, listAgents(config));
  if (caller.kind === "agent" && caller.role !== settings.evaluator) {
    const who = `only role ${settings.evaluator} reviews (contracts.evaluator in org.yaml)`;
    throw new OrgError(`${caller.agent} may not review: ${who} (nothing was changed)`, "not-party");
  }
  if (opts.commit !== undefined && !/^[0-9a-f]{4,40}$/.test(opts.commit)) {
    const fix = "give one from `org results`, e.g. 1a2b3c4 (nothing was changed)";
    throw new OrgError(`--commit "${opts.commit}" is not a commit hash — ${fix}`, "usage");
  }
  return reviewSprint({ ...opts, config, settings, caller });
}
