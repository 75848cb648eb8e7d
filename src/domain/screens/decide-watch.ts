import { parseResetTime } from "./reset-time.js";
import type { ScreenState } from "./screen-state.js";

const HOUR = 3_600_000;
// A limit that names no reset time is looked at again after this long, never in a tight loop.
const UNKNOWN_RESET_WAIT_MS = HOUR;
// The same dialog still up this soon after an answer is the CLI redrawing, not a new question.
const TRUST_SETTLE_MS = 10_000;
const MAX_TRUST_ANSWERS = 3;

export interface WatchSettings {
  nudge: string;
  nudgeAfterMs: number;
  nudgesPerHour: number;
  answerTrust: boolean;
}

/** What the watcher remembers of one agent between ticks. */
export interface WatchMemory {
  /** Epoch ms of each nudge typed. */
  nudges: number[];
  /** Epoch ms of each trust answer typed. */
  trustAnswers: number[];
  /** Set while a usage limit is being waited out. */
  waitUntil: number | null;
}

export type WatchDecision =
  | { kind: "none"; reason: string }
  | { kind: "nudge"; text: string; reason: string }
  | { kind: "answer-trust"; keys: string[]; reason: string }
  | { kind: "wait"; until: number; reason: string }
  | { kind: "block"; fix: string; reason: string };

export interface WatchInput {
  screen: ScreenState;
  /** The program is running in its pane; when false nothing is ever typed. */
  alive: boolean;
  /** How long the screen has been exactly as it is now. */
  unchangedMs: number;
  now: number;
  memory: WatchMemory;
  settings: WatchSettings;
  /** The fix to show for a screen only a person can get past. */
  fix: string;
}

/** One agent's next move from its screen: never types into a dead program, a shell or an unknown screen. */
export function decideWatch(input: WatchInput): WatchDecision {
  const { screen, now, memory, settings } = input;
  const recent = (times: number[]) => times.filter((at) => now - at < HOUR);
  if (screen.kind === "login-required" || screen.kind === "key-refused" || screen.kind === "offline"
      || screen.kind === "refused") {
    return { kind: "block", fix: input.fix, reason: screen.reason };
  }
  if (screen.kind === "service-error") return decideServiceError(input);
  if (!input.alive) return { kind: "none", reason: `the program is not running (${screen.reason}): nothing is typed` };
  switch (screen.kind) {
    case "usage-limit": {
      const until = memory.waitUntil ?? parseResetTime(screen.resetText ?? "", now) ?? now + UNKNOWN_RESET_WAIT_MS;
      if (now < until) return {
        kind: "wait",
        until,
        reason: `usage limit: ${screen.resetText ? `resets ${screen.resetText}` : "no reset time shown"}`,
      };
      return { kind: "nudge", text: settings.nudge, reason: "the usage limit's reset time has passed" };
    }
    case "trust-dialog": {
      const answers = recent(memory.trustAnswers);
      if (!settings.answerTrust) return {
        kind: "block",
        fix: input.fix,
        reason: `${screen.reason}; answer_trust is off`,
      };
      if (answers.length >= MAX_TRUST_ANSWERS) return {
        kind: "block",
        fix: input.fix,
        reason: `${screen.reason}; still there after ${answers.length} answers`,
      };
      if (answers.some((at) => now - at < TRUST_SETTLE_MS)) return {
        kind: "none",
        reason: "trust dialog just answered",
      };
      return { kind: "answer-trust", keys: screen.keys, reason: screen.reason };
    }
    case "idle": {
      if (input.unchangedMs < settings.nudgeAfterMs) return { kind: "none", reason: "idle, not yet for long" };
      if (recent(memory.nudges).length >= settings.nudgesPerHour) return {
        kind: "none",
        reason: `idle; ${settings.nudgesPerHour} nudges this hour already`,
      };
      return {
        kind: "nudge",
        text: settings.nudge,
        reason: `idle with an unchanged screen for ${Math.round(input.unchangedMs / 1000)}s`,
      };
    }
    default:
      return { kind: "none", reason: screen.reason };
  }
}

/**
 * A CLI that gave up on a failing service: blocked so a person sees why, and nudged within the
 * budget so it tries again.
 */
function decideServiceError(input: WatchInput): WatchDecision {
  const { screen, now, memory, settings } = input;
  const block: WatchDecision = { kind: "block", fix: input.fix, reason: screen.reason };
  if (!input.alive || input.unchangedMs < settings.nudgeAfterMs) return block;
  if (memory.nudges.filter((at) => now - at < HOUR).length >= settings.nudgesPerHour) return block;
  return {
    kind: "nudge",
    text: settings.nudge,
    reason: `${screen.reason}, unchanged for ${Math.round(input.unchangedMs / 1000)}s: nudged to try the service again`,
  };
}
