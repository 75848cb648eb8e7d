import type { ScreenState } from "./screen-state.js";

// A resumed CLI slower than this to show its prompt is left to the idle nudge (nudge_after).
export const RESUME_KICKOFF_BOUND_MS = 120_000;
// The prompt must have stood this long: a TUI still drawing the session it resumed may drop a paste.
const SETTLE_MS = 1_000;

/** state/agents/<agent>/resume-kickoff.json: a restart with the resume argv of a CLI whose resume drops the kickoff. */
export interface ResumeKickoff {
  /** The pane the resumed CLI runs in: a record left for another pane (an `org up` since) is no one's. */
  pane: string;
  resumedAt: string;
  /** Written before the typing: a daemon started again never types the kickoff twice. */
  done: { at: string; outcome: "typed" | "gave-up" } | null;
}

export type ResumeKickoffDecision =
  | { kind: "none"; reason: string }
  | { kind: "wait"; reason: string }
  | { kind: "type"; text: string; reason: string }
  | { kind: "give-up"; reason: string };

export interface ResumeKickoffInput {
  record: ResumeKickoff | undefined;
  /** The kickoff to type (launch.json's runtime.typeOnResume); null for a CLI that takes it from its resume argv. */
  kickoff: string | null | undefined;
  paneId: string;
  screen: ScreenState;
  alive: boolean;
  /** How long the screen has been exactly as it is now. */
  unchangedMs: number;
  now: number;
}

/** A restart that pends this restart's kickoff, as the supervisor records it right before the respawn. */
export function pendResumeKickoff(pane: string, now: number): ResumeKickoff {
  return { pane, resumedAt: new Date(now).toISOString(), done: null };
}

/** Whether to type a resumed CLI's kickoff now: once, at its settled prompt, within the bound. */
export function decideResumeKickoff(input: ResumeKickoffInput): ResumeKickoffDecision {
  const { record, kickoff, screen } = input;
  if (!record) return { kind: "none", reason: "no resume pending" };
  const { done } = record;
  if (done) return { kind: "none", reason: `the resumed kickoff was ${done.outcome} at ${done.at}` };
  if (!kickoff) return { kind: "none", reason: "the CLI takes its kickoff from its resume argv" };
  if (record.pane !== input.paneId) return { kind: "none", reason: `resumed in pane ${record.pane}, not this one` };
  const waited = input.now - Date.parse(record.resumedAt);
  const seconds = Math.round(waited / 1000);
  if (!(waited <= RESUME_KICKOFF_BOUND_MS)) {
    return { kind: "give-up", reason: `no prompt ${seconds}s after the resume: the idle nudge takes over` };
  }
  if (!input.alive) return { kind: "wait", reason: "the resumed program is not running" };
  if (screen.kind !== "idle") return { kind: "wait", reason: `not at its prompt yet (${screen.reason})` };
  if (input.unchangedMs < SETTLE_MS) return { kind: "wait", reason: "at its prompt, still drawing" };
  const reason = `at its prompt ${seconds}s after the resume, which dropped the kickoff`;
  return { kind: "type", text: kickoff, reason };
}
