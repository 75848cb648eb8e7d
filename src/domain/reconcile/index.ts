// The reconcile folder's public surface: what a running org should become, and the steps that get it there.
export { applyActions, type ApplyInput } from "./apply.js";
export { describeChanges } from "./changes.js";
export { describeAction, summarizeActions } from "./describe.js";
export { buildDesired, type DesiredInput } from "./desired.js";
export { inferLaunchContext } from "./launch-context.js";
export { planLeases, type LeasePlan } from "./leases.js";
export { checkMetaEdit, checkMetaRate, isMetaRole, listConfigFiles, type MetaCheck } from "./meta-check.js";
export { observeOrg } from "./observe.js";
export { reconcile } from "./reconcile.js";
export type {
  Action, DesiredAgent, DesiredOrg, ObservedAgent, ObservedOrg, ReconcileResult, Refusal,
} from "./org-states.js";
