// The config folder's only public surface: schema types, loading, formatting, the starter and the JSON Schema.
export {
  ConfigSchema,
  MetricSchema,
  parseDuration,
  RoleSchema,
  RuntimeSchema,
  SAFE_NAME,
  SAFE_NAME_RULE,
  ShareSchema,
  SupervisorSchema,
  VerifySchema,
  type OrgConfig,
  type RoleConfig,
  type RuntimeConfig,
  type ShareEntry,
  type VerifyConfig,
} from "./schema.js";
export { loadConfig, type LoadedConfig, type LoadResult } from "./load.js";
export type { ConfigProbe } from "./probe.js";
export { formatProblems, type Problem } from "./locate.js";
export { PLACEHOLDERS } from "./runtime-rules.js";
export { findClosest } from "./did-you-mean.js";
export { renderStarter } from "../../roles/index.js";
export { buildJsonSchema, renderJsonSchema } from "./json-schema.js";
