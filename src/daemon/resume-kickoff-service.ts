import { formatLogEntry } from "../domain/log-entry.js";
import { agentPaths, logPath } from "../domain/paths.js";
import type { AgentPane } from "../domain/ports.js";
import { decideResumeKickoff, pendResumeKickoff, type ResumeKickoff } from "../domain/screens/resume-kickoff.js";
import type { ScreenState } from "../domain/screens/screen-state.js";
import type { LaunchSpec } from "../domain/state.js";
import { appendLines } from "../adapters/fs/files.js";
import { readResumeKickoff, removeResumeKickoff, writeResumeKickoff } from "../adapters/store/resume-kickoff-file.js";

/**
 * Written right before a respawn, so the screen watch finds it with the new program: a resume of a CLI that drops its
 * kickoff pends one typing; any other start clears what an earlier restart left.
 */
export async function noteRestart(
  state: string, spec: LaunchSpec, pane: string, resumed: boolean, now: number,
): Promise<void> {
  if (resumed && spec.runtime?.typeOnResume) await writeResumeKickoff(state, spec.agent, pendResumeKickoff(pane, now));
  else await removeResumeKickoff(state, spec.agent);
}

/** What the screen watch tells about one look at a pane, and how it types. */
export interface KickoffLook {
  pane: AgentPane;
  spec: LaunchSpec;
  screen: ScreenState;
  alive: boolean;
  unchangedMs: number;
  now: number;
  /** Right before typing: the program still runs and its screen still shows what was decided on. */
  canType(): Promise<boolean>;
  type(text: string): Promise<void>;
}

/**
 * Types a resumed CLI's kickoff once it shows its prompt, for a CLI whose resume drops it (the preset's
 * kickoff_on_resume: type). The record is read once per program (pid), and marked done before the typing.
 */
export class ResumeKickoffs {
  private readonly records = new Map<string, { pid: number; record: ResumeKickoff | undefined }>();
  /** Agents whose resumed CLI is not yet at its prompt: while any is, the screens are looked at more often. */
  private readonly waiting = new Set<string>();

  constructor(private readonly state: string) {}

  /** The kickoff typed at this look, or null. */
  async look(look: KickoffLook): Promise<string | null> {
    const { pane, now } = look;
    const record = await this.recordFor(pane);
    const kickoff = look.spec.runtime?.typeOnResume;
    const { screen, alive, unchangedMs } = look;
    const decision = decideResumeKickoff({ record, kickoff, paneId: pane.id, screen, alive, unchangedMs, now });
    if (decision.kind === "wait") this.waiting.add(pane.agent);
    else this.waiting.delete(pane.agent);
    if (decision.kind === "none" || decision.kind === "wait") return null;
    if (decision.kind === "type" && !(await look.canType())) return null;
    const outcome = decision.kind === "type" ? "typed" : "gave-up";
    const done: ResumeKickoff = { ...record!, done: { at: new Date(now).toISOString(), outcome } };
    // Marked done first: a daemon killed mid-typing leaves the idle nudge to recover, never a second kickoff.
    await writeResumeKickoff(this.state, pane.agent, done);
    this.records.set(pane.agent, { pid: pane.pid, record: done });
    const typed = decision.kind === "type" ? decision.text : null;
    if (typed !== null) await look.type(typed);
    await this.log(pane.agent, now, { outcome, reason: decision.reason, typed });
    return typed;
  }

  private async log(agent: string, now: number, what: { outcome: string; reason: string; typed: string | null }) {
    const date = new Date(now);
    const event = { at: date.toISOString(), type: "resume-kickoff", ...what };
    await appendLines(agentPaths(this.state, agent).events, [JSON.stringify(event)]);
    const body = what.typed === null ? what.reason : `${what.reason}; typed ${JSON.stringify(what.typed)}`;
    await appendLines(logPath(this.state), [formatLogEntry({ date, op: "resume-kickoff", title: agent, body })]);
  }

  /** Forgets agents no longer watched (removed by a reload), so none keeps the screens looked at often. */
  retain(agents: Set<string>): void {
    for (const agent of this.waiting) if (!agents.has(agent)) this.waiting.delete(agent);
  }

  /** Some resumed CLI's kickoff is still to be typed. */
  isWaiting(): boolean {
    return this.waiting.size > 0;
  }

  private async recordFor(pane: AgentPane): Promise<ResumeKickoff | undefined> {
    const known = this.records.get(pane.agent);
    if (known && known.pid === pane.pid) return known.record;
    const record = await readResumeKickoff(this.state, pane.agent);
    this.records.set(pane.agent, { pid: pane.pid, record });
    return record;
  }
}
