// Where each CLI keeps its transcript (the places its usage is read from) and how to read it as events.
import { usageFormatOf } from "../usage/usage-formats.js";
import { readClaudeEvents } from "./claude-events.js";
import { readCodexEvents } from "./codex-events.js";
import type { FileEvents } from "./events.js";
import { readGeminiEvents } from "./gemini-events.js";

export type TraceFormat =
  | {
    kind: "jsonl"; cli: string; dir: string;
    matches: (relativePath: string) => boolean; read: (values: readonly unknown[]) => FileEvents;
  }
  | { kind: "opencode-db"; cli: string; file: string }
  | { kind: "none"; why: string };

const BUILTIN = "a built-in researcher calls no model, so it writes no transcript";

const KNOWN = "Claude Code, Codex, Gemini CLI and opencode";

const READERS: Record<string, (values: readonly unknown[]) => FileEvents> = {
  claude: readClaudeEvents,
  codex: readCodexEvents,
  gemini: readGeminiEvents,
};

/** The transcript of a preset's CLI; a builtin or a generic program writes none org can read, and why. */
export function traceFormatOf(preset: string | undefined): TraceFormat {
  if (preset === undefined) return { kind: "none", why: BUILTIN };
  const usage = usageFormatOf(preset);
  if (usage.kind === "opencode-db") return usage;
  const read = READERS[preset];
  const why = `a ${preset} runtime writes no transcript org can read (org reads ${KNOWN})`;
  if (usage.kind === "none" || !read) return { kind: "none", why };
  return { kind: "jsonl", cli: usage.cli, dir: usage.dir, matches: usage.matches, read };
}
