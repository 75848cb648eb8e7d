import type { PresetName } from "./runtime-presets.js";

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** Keys org sets in one JSON file of the agent's config folder, merged into what is there. */
export interface StatePatch {
  /** Relative to the agent's config folder. */
  file: string;
  set: JsonObject;
}

/**
 * A TOML table org adds to a file of the agent's config folder, unless its header is there
 * already (the CLI's own, or the seed's).
 */
export interface TomlTable {
  /** Relative to the agent's config folder. */
  file: string;
  header: string;
  body: string;
}

/** What the agent's CLI receives: its worktree, whether org.yaml trusts it, and its environment (secrets included). */
export interface StateContext {
  worktree: string;
  answerTrust: boolean;
  env: Readonly<Record<string, string>>;
}

/**
 * The answers a CLI would otherwise ask for on its first start in a fresh config folder, where no person
 * is there to give them: onboarding, the API key it was handed, and (when org.yaml trusts the worktree) trust.
 */
export function planConfigState(preset: PresetName, context: StateContext): StatePatch[] {
  if (preset === "claude") return planClaude(context);
  if (preset === "gemini") return planGemini(context);
  return [];
}

/**
 * Codex 0.169.0 asks whether to trust a folder unless $CODEX_HOME/config.toml names it
 * trusted: answered there before it asks.
 */
export function planConfigTables(preset: PresetName, context: StateContext): TomlTable[] {
  if (preset !== "codex" || !context.answerTrust) return [];
  return [{
    file: "config.toml",
    header: `[projects.${quoteToml(context.worktree)}]`,
    body: 'trust_level = "trusted"',
  }];
}

/** The file with the table appended; unchanged when a table of that header is there. */
export function appendTomlTable(text: string | undefined, table: TomlTable): string {
  const current = text ?? "";
  if (current.split("\n").some((line) => line.trim() === table.header)) return current;
  const gap = current === "" ? "" : current.endsWith("\n") ? "\n" : "\n\n";
  return `${current}${gap}${table.header}\n${table.body}\n`;
}

// A TOML basic string: a path may hold quotes or backslashes.
function quoteToml(text: string): string {
  return `"${text.replace(/[\\"]/g, (char) => `\\${char}`)}"`;
}

// Claude Code 2.1.328 keeps these in $CLAUDE_CONFIG_DIR/.claude.json and settings.json.
function planClaude(context: StateContext): StatePatch[] {
  const state: JsonObject = { hasCompletedOnboarding: true };
  // It records an approved key by its last 20 characters; a key that short would be written
  // whole: leave it to its prompt.
  const key = context.env.ANTHROPIC_API_KEY?.trim() ?? "";
  if (key.length > 20) state.customApiKeyResponses = { approved: [key.slice(-20)] };
  if (!context.answerTrust) return [{ file: ".claude.json", set: state }];
  state.projects = { [context.worktree]: { hasTrustDialogAccepted: true } };
  return [
    { file: ".claude.json", set: state },
    // The "Bypass Permissions mode" warning --dangerously-skip-permissions raises, answered "Yes, I accept".
    { file: "settings.json", set: { skipDangerousModePermissionPrompt: true } },
  ];
}

// Gemini CLI 0.61.0 reads $GEMINI_CLI_HOME/.gemini/settings.json; with no selectedType it stops at its auth menu.
// Its shell tool on node-pty cuts the output a command writes just before it exits when the CLI's event loop stalls
// (the pty is destroyed 200 ms after the exit, read or not: 4 cut in ~150 runs at load 20); pipes are read to EOF.
function planGemini(context: StateContext): StatePatch[] {
  const set: JsonObject = { general: { enableAutoUpdate: false }, tools: { shell: { enableInteractiveShell: false } } };
  if (context.env.GEMINI_API_KEY) set.security = { auth: { selectedType: "gemini-api-key" } };
  return [{ file: ".gemini/settings.json", set }];
}

/** `base` with `set` merged in: objects key by key, arrays as a union, anything else replaced. */
export function mergeJson(base: JsonObject, set: JsonObject): JsonObject {
  const merged: JsonObject = { ...base };
  for (const [key, value] of Object.entries(set)) {
    const current = merged[key];
    if (isObject(current) && isObject(value)) merged[key] = mergeJson(current, value);
    else if (Array.isArray(current) && Array.isArray(value)) merged[key] = [
      ...current,
      ...value.filter((item) => !current.includes(item)),
    ];
    else merged[key] = value;
  }
  return merged;
}

/**
 * A file's JSON object; {} when there is no file; null when it holds something else (JSONC, a
 * corrupt file): left alone.
 */
export function parseStateFile(text: string | undefined): JsonObject | null {
  if (text === undefined) return {};
  try {
    const value = JSON.parse(text) as Json;
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
