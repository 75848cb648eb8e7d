export { splitChanges, type ChangeSplit, type KeptChange } from "./split-changes.js";
export {
  planVariants, type ChangedLines, type RevertOutcome, type RevertPort, type VariantPlan,
} from "./plan-variants.js";
export {
  buildContributions, NOISE_NOTE, type AblationInput, type ContributionRow, type Effect, type VariantMeasure,
} from "./contribution.js";
export { buildWaterfall, type WaterfallStep } from "./waterfall.js";
export {
  ABLATION_RECORD, describeVariant, parseAblationRecord, parseVariantResult, readRowRuns,
  type AblationRecord, type VariantResult,
} from "./record.js";
