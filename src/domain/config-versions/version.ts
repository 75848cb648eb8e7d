// A program version: a short hash of what the org runs, org.yaml as loaded and the prompts it
// names, not of their bytes.
import { createHash } from "node:crypto";
import { posix } from "node:path";
import type { OrgConfig } from "../config/index.js";
import { compareCodeUnits } from "../code-unit-order.js";
/** What rows written before program versions, and rows with an empty program column, belong to. */
export const UNVERSIONED = "unversioned";

/** Hex digits of a version: 8 of sha256 keep ids short; an org sees tens of versions, not billions. */
const VERSION_LENGTH = 8;

/** The org's program: the normalized config and each prompt file's text, by the path org.yaml names it with. */
export interface ProgramContent {
  config: OrgConfig;
  prompts: Record<string, string>;
}

/** The prompt paths a config names, each once, as written (posix-normalized). */
export function listPromptPaths(config: OrgConfig): string[] {
  return [...new Set(Object.values(config.roles).map((role) => normalizePromptPath(role.prompt)))].sort();
}

export function normalizePromptPath(prompt: string): string {
  return posix.normalize(prompt.replace(/\\/g, "/"));
}

/**
 * A prompt as it counts for the version: line endings, trailing spaces and runs of blank lines do not.
 * Markdown comments do count: renderPrompt passes them to the agent, so editing one can change what it does.
 */
export function normalizePrompt(text: string): string {
  const lines = text.replace(/\r\n?/g, "\n").split("\n").map((line) => line.trimEnd());
  return lines.join("\n").replace(/\n{3,}/g, "\n\n").replace(/^\n+|\n+$/g, "");
}

/**
 * The version of a program: the same config with other whitespace, comments, key order or
 * spelled-out defaults hashes the same.
 */
export function computeProgramVersion(program: ProgramContent): string {
  const prompts = Object.keys(program.prompts).sort()
    .map((path) => [normalizePromptPath(path), normalizePrompt(program.prompts[path]!)]);
  const canonical = JSON.stringify({ config: sortKeys(program.config), prompts });
  return createHash("sha256").update(canonical).digest("hex").slice(0, VERSION_LENGTH);
}

/** Equal as values: the key order of a map does not count, as it does not for the version. */
export function isSameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
  return Object.fromEntries(entries.sort(([a], [b]) => compareCodeUnits(a, b))
    .map(([key, item]) => [key, sortKeys(item)]));
}
