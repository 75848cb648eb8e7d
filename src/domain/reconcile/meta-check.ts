import { isAbsolute, posix } from "node:path";
import type { OrgConfig } from "../config/index.js";
import { matchesRule } from "../experiments/path-rules.js";
import { formatDuration } from "../lifecycle/supervise.js";
import { formatEdits, readRole } from "../../roles/index.js";

export type MetaCheck = { ok: true } | { ok: false; reason: string };

/** The org's own config files a meta role may edit, relative to the org folder: org.yaml and each prompt inside it. */
export function listConfigFiles(config: OrgConfig): string[] {
  const prompts = Object.values(config.roles)
    .map((role) => role.prompt)
    .filter((prompt) => !isAbsolute(prompt))
    .map((prompt) => posix.normalize(prompt))
    .filter((prompt) => !prompt.startsWith("../"));
  return ["org.yaml", ...new Set(prompts)].sort((a, b) =>
    (a === "org.yaml" ? -1 : b === "org.yaml" ? 1 : a.localeCompare(b)));
}

/** A meta role declares org.yaml or a prompt in its edits; an empty edits list (anything) does not count. */
export function isMetaRole(config: OrgConfig, role: string): boolean {
  const files = listConfigFiles(config);
  return (config.roles[role]?.edits ?? []).some((rule) => files.some((file) => matchesRule(file, rule)));
}

/** Who may propose this edit, and whether it stays inside what the role may edit and away from the verifier. */
export function checkMetaEdit(input: {
  agent: string; role: string; config: OrgConfig; changed: string[]; verifyChanged: boolean;
}): MetaCheck {
  const { agent, role, config } = input;
  const edits = config.roles[role]?.edits ?? [];
  if (!isMetaRole(config, role)) {
    return {
      ok: false,
      reason: `${agent}'s role ${role} may not change the org: its edits [${edits.join(", ")}] name neither org.yaml `
        + `nor a prompt — a meta role lists them, e.g. edits: ${formatEdits(readRole("meta").edits)}`,
    };
  }
  const outside = input.changed.filter((path) => !edits.some((rule) => matchesRule(path, rule)));
  if (outside.length > 0) return {
    ok: false,
    reason: `the edit changes ${outside.join(", ")}, outside ${role}'s edits [${edits.join(", ")}] — `
      + `change only those files in your copy`,
  };
  if (input.verifyChanged) return {
    ok: false,
    reason: "the edit changes verify, the immutable verifier — only a person changes how experiments are judged; "
      + "undo that part of your copy",
  };
  return { ok: true };
}

/** At most one applied meta edit per reload.min_interval. */
export function checkMetaRate(now: Date, lastAppliedAt: string | undefined, minIntervalMs: number): MetaCheck {
  if (!lastAppliedAt) return { ok: true };
  const elapsed = now.getTime() - Date.parse(lastAppliedAt);
  if (Number.isNaN(elapsed) || elapsed >= minIntervalMs) return { ok: true };
  return {
    ok: false,
    reason: `rate-limited: the last meta edit was applied ${formatDuration(elapsed)} ago and reload.min_interval `
      + `is ${formatDuration(minIntervalMs)} — run \`org reload\` again in ${formatDuration(minIntervalMs - elapsed)}`,
  };
}
