// The config folder's only public surface (test/house.test.ts holds it): schema types and settings, loading,
// formatting problems and the JSON Schema. The starter is roles': through here it would load every role with a type.
export {
  ConfigSchema,
  MessagesSchema,
  MetricSchema,
  parseDuration,
  progressMaxBytes,
  reloadSettings,
  RoleSchema,
  RuntimeSchema,
  SAFE_NAME,
  SAFE_NAME_RULE,
  ShareSchema,
  SlurmSchema,
  SupervisorSchema,
  VerifySchema,
  type ContractSettings,
  type MessageSettings,
  type OrgConfig,
  type RoleConfig,
  type RuntimeConfig,
  type SandboxConfig,
  type ShareEntry,
  type SlurmConfig,
  type StopSettings,
  type VerifyConfig,
} from "./schema.js";
export { DEFAULT_QUEUE_PER_AGENT } from "./verify-schema.js";
export type { JudgeConfig } from "./judge-schema.js";
export { DiskSchema } from "./disk-schema.js";
export { readClaimSettings } from "./claims-schema.js";
export { formatSize, parseSize } from "./size.js";
export { explainUnsafeName } from "./names.js";
export { loadConfig, type LoadedConfig, type LoadResult } from "./load.js";
export type { ConfigProbe } from "./probe.js";
export { formatProblems, type Problem } from "./locate.js";
export { formatPath } from "./messages.js";
export { PLACEHOLDERS } from "./runtime-rules.js";
export { findClosest, suggestFix } from "./did-you-mean.js";
export { buildJsonSchema, renderJsonSchema } from "./json-schema.js";
