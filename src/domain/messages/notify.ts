import { cleanLine } from "../safe-text.js";
import type { AgentStatus } from "../state.js";

/**
 * What the notifier last saw of a pane: its text, when that text last changed, whether tmux
 * calls it dead, whose it is.
 */
export interface PaneLook {
  text: string;
  changedAt: number;
  dead: boolean;
  /** The pane's @org_agent label. */
  agent: string;
}

/** A message waiting for its notification. */
export interface PendingNotice {
  id: string;
  from: string;
  kind: string;
  /** Epoch ms the message was written (its front matter time) and first seen by the notifier. */
  sentAt: number;
  seenAt: number;
}

export type NoticeOutcome = "typed" | "skipped-dead" | "skipped-busy" | "failed";

export type NoticeDecision =
  | { kind: "type"; line: string }
  | { kind: "wait"; reason: string }
  | { kind: "skip"; outcome: "skipped-dead" | "skipped-busy"; reason: string };

/** Whether the agent's program runs: its supervisor says running and the pid is alive. */
export function checkAlive(status: AgentStatus | undefined, isAlive: (pid: number) => boolean): {
  alive: boolean; reason: string;
} {
  if (!status) return { alive: false, reason: "it has no status.json yet" };
  if (status.state !== "running") return { alive: false, reason: `its program is ${status.state}: ${status.reason}` };
  if (status.pid === null || !isAlive(status.pid)) return { alive: false, reason: "its program has exited" };
  return { alive: true, reason: "running" };
}

/**
 * Type into a pane only when its program is alive and the pane has been still for `idleMs`;
 * a dead program gets no keystrokes, and a pane busy past `busyTimeoutMs` is left alone.
 */
export function decideNotice(input: {
  agent: string;
  live: { alive: boolean; reason: string };
  look: PaneLook | undefined;
  pending: PendingNotice[];
  now: number;
  idleMs: number;
  busyTimeoutMs: number;
  /**
   * For a known CLI: whether its screen shows its input prompt (a CLI still starting, or in a
   * dialog, loses what is typed).
   */
  screen?: { ready: boolean; reason: string };
}): NoticeDecision {
  const { live, look, now } = input;
  if (!live.alive) return { kind: "skip", outcome: "skipped-dead", reason: live.reason };
  if (!look) return { kind: "wait", reason: "no look at the pane yet" };
  // A pane id from a previous grid may now be someone else's: never type into a pane not labelled as the recipient's.
  if (look.agent !== input.agent) return { kind: "wait", reason: `its pane is labelled "${look.agent}"` };
  if (look.dead) return { kind: "skip", outcome: "skipped-dead", reason: "its pane is dead" };
  const ready = input.screen?.ready ?? true;
  if (ready && now - look.changedAt >= input.idleMs) return { kind: "type", line: formatNotice(input.pending) };
  const since = Math.min(...input.pending.map((notice) => notice.seenAt));
  const waited = Math.round((now - since) / 1000);
  if (now - since >= input.busyTimeoutMs) {
    return {
      kind: "skip",
      outcome: "skipped-busy",
      reason: ready
        ? `the pane stayed busy for ${waited}s`
        : `not at its prompt for ${waited}s: ${input.screen!.reason}`,
    };
  }
  return { kind: "wait", reason: ready ? "the pane is busy" : `not at its prompt: ${input.screen!.reason}` };
}

/** How often `line` shows on a screen, wrapped or boxed or not: whitespace and box edges are not compared. */
export function countNoticeLines(screen: string, line: string): number {
  const squeeze = (text: string) => text.replace(/[\s│┃║]+/g, "");
  const needle = squeeze(line);
  return needle === "" ? 0 : squeeze(screen).split(needle).length - 1;
}

/**
 * One short line, whatever the messages say: their content stays in the files. It is typed into another agent's pane,
 * so even a sender or kind that slipped past the name rules types no escape, control key or line break there.
 */
export function formatNotice(pending: Pick<PendingNotice, "from" | "kind">[]): string {
  const last = pending[pending.length - 1]!;
  const count = pending.length === 1 ? "new message" : `${pending.length} new messages, the latest`;
  return cleanLine(`[org] ${count} from ${last.from} (${last.kind}): run \`org inbox\``);
}

/**
 * The wait before the notifier's next look at every pane: doubled while no pane changed, up to `maxMs`, and `baseMs`
 * again once one did. A still pane stays "still since" however old the look; a changed one only waits messages.idle.
 */
export function chooseFullLookMs(currentMs: number, changed: boolean, baseMs: number, maxMs: number): number {
  return changed ? baseMs : Math.min(maxMs, currentMs * 2);
}
