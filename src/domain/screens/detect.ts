import type { PresetName } from "../runtimes/runtime-presets.js";
import { SCREEN_RULES } from "./screen-presets.js";
import type { ScreenState } from "./screen-state.js";

// A shell prompt on the last line: user@host:dir$ , bash-5.2# , or a bare $ / # / %.
const SHELL_PROMPT = /^(?:[\w.-]+@[\w.-]+(?::[^\s]*)?\s?[$#%]|(?:ba|z|da)?sh(?:-[\d.]+)?[$#%]|[$#%])\s*$/;
const NOT_FOUND = /(?:command not found|No such file or directory|not found)\s*$/;
// A dialog's row inside a box: "│ ● 1. Trust folder (wt)      │" is shown as "● 1. Trust folder (wt)".
const BOX_EDGES = /^[\s│┃]+|[\s│┃]+$/g;

/**
 * What the screen of a `preset` CLI shows. `programAlive` is the pane's own knowledge: a dead program
 * is never working or idle, whatever its last screen says.
 */
export function detectScreen(preset: PresetName, rows: string[], programAlive = true): ScreenState {
  const lines = rows.map((row) => row.replace(/\s+$/, ""));
  for (const rule of SCREEN_RULES[preset]) {
    const index = lines.findIndex((line, at) => at >= tailStart(lines, rule.tail) && rule.pattern.test(line));
    if (index === -1) continue;
    const line = tidyRow(lines[index]!);
    if (!programAlive && (rule.kind === "working" || rule.kind === "idle")) break;
    const reason = `screen shows "${line}"`;
    if (rule.kind === "trust-dialog") return { kind: "trust-dialog", reason, keys: rule.keys ?? ["Enter"] };
    if (rule.kind === "refused") return { kind: "refused", reason, refusal: rule.refusal ?? "root" };
    if (rule.kind === "usage-limit") return {
      kind: "usage-limit",
      reason,
      resetText: findReset(lines.slice(index, index + 3), rule.reset),
    };
    return { kind: rule.kind, reason };
  }
  // tmux's own line on a dead pane: 126/127 is the shell saying the program never ran, even when its words were lost.
  const deadStatus = lines.map((line) => /^Pane is dead \(status (\d+)/.exec(line)?.[1]).find(Boolean);
  if (!programAlive && (deadStatus === "126" || deadStatus === "127")) return {
    kind: "shell",
    reason: `exit ${deadStatus}: the shell could not run the program`,
  };
  const filled = lines.filter((line) => line.trim() !== "" && !/^Pane is dead/.test(line));
  const last = filled.at(-1)?.trim() ?? "";
  if (SHELL_PROMPT.test(last) || (NOT_FOUND.test(last) && !programAlive)) return {
    kind: "shell",
    reason: `back at a shell: "${last}"`,
  };
  return {
    kind: "unknown",
    reason: filled.length === 0 ? "the screen is empty" : `no known screen; last line "${last.slice(0, 80)}"`,
  };
}

function tailStart(lines: string[], tail: number | undefined): number {
  if (!tail) return 0;
  const filled = lines.flatMap((line, at) => (line.trim() === "" ? [] : [at]));
  return filled[Math.max(filled.length - tail, 0)] ?? 0;
}

function findReset(lines: string[], pattern: RegExp | undefined): string | null {
  if (!pattern) return null;
  for (const line of lines) {
    const match = pattern.exec(tidyRow(line));
    if (match?.[1]) return match[1].trim();
  }
  return null;
}

function tidyRow(row: string): string {
  return row.replace(BOX_EDGES, "").replace(/\s{2,}/g, " ");
}
