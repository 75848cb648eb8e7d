import type { OrgConfig } from "./config/schema.js";

/** The part of a loaded org.yaml that commands need. */
export interface LoadedConfigLike {
  file: string;
  dir: string;
  text: string;
  config: OrgConfig;
  repoDir: string;
  baseCommit: string;
}
