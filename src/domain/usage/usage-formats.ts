import { readClaudeLine } from "./claude-transcript.js";
import { readCodexLine } from "./codex-rollout.js";
import { readGeminiLine } from "./gemini-chat.js";
import type { LineReader } from "./token-counts.js";

/** Where one agent CLI records its replies' usage inside the agent's own config folder, and how to read it. */
export type UsageFormat =
  | { kind: "jsonl"; cli: string; dir: string; matches: (relativePath: string) => boolean; read: LineReader }
  | { kind: "opencode-db"; cli: string; file: string }
  | { kind: "none"; why: string };

// Keyed by preset: a runtime's preset says which CLI runs, whatever program path org.yaml gives.
const FORMATS: Record<string, UsageFormat> = {
  // Subagents' conversations are files of their own below the session's folder: every .jsonl under projects/ counts.
  claude: {
    kind: "jsonl",
    cli: "Claude Code",
    dir: "projects",
    matches: (path) => path.endsWith(".jsonl"),
    read: readClaudeLine,
  },
  codex: {
    kind: "jsonl",
    cli: "Codex",
    dir: "sessions",
    matches: (path) => /(^|\/)rollout-[^/]*\.jsonl$/.test(path),
    read: readCodexLine,
  },
  gemini: {
    kind: "jsonl",
    cli: "Gemini CLI",
    dir: ".gemini/tmp",
    matches: (path) => /(^|\/)chats\/[^/]*\.jsonl$/.test(path),
    read: readGeminiLine,
  },
  opencode: { kind: "opencode-db", cli: "opencode", file: "opencode/opencode.db" },
};

/** The usage format of a preset; a generic program or a builtin records nothing org can read. */
export function usageFormatOf(preset: string | undefined): UsageFormat {
  if (preset === undefined) return { kind: "none", why: "a builtin runtime calls no model" };
  return FORMATS[preset] ?? { kind: "none", why: `a ${preset} runtime records no token usage org can read` };
}
