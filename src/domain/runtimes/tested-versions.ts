import type { PresetName } from "./runtime-presets.js";

// The versions org's screen rules and config answers were checked against
// (test/fixtures/screens/, scripts/install-clients.sh).
const TESTED: Record<PresetName, string | null> = {
  claude: "2.1.328",
  codex: "0.169.0",
  gemini: "0.61.0",
  opencode: "1.18.33",
  generic: null,
};

export type VersionVerdict =
  | { kind: "tested"; reason: string }
  | { kind: "other"; tested: string; reason: string }
  | { kind: "unknown"; reason: string };

/** Whether a program's version line is the one org was checked against: another may draw screens org does not know. */
export function judgeVersion(preset: PresetName, versionLine: string | null): VersionVerdict {
  const tested = TESTED[preset];
  if (!tested) return { kind: "unknown", reason: "no tested version for a generic runtime" };
  if (versionLine === null) return { kind: "unknown", reason: "it printed no version" };
  const found = versionLine.match(/\d+\.\d+\.\d+/)?.[0];
  if (found === tested) return { kind: "tested", reason: `${found} is the tested version` };
  return { kind: "other", tested, reason: `${found ?? versionLine} is not ${tested}, the version org was tested with` };
}

/** The install command pinned to the tested version: `npm install -g @openai/codex@0.169.0`. */
export function pinInstall(install: string, tested: string): string {
  return /^npm install -g \S+$/.test(install) ? `${install}@${tested}` : `${install} (version ${tested})`;
}
