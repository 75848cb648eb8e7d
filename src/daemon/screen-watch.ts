import { isDiskBlock } from "../domain/sandbox/disk-budget.js";
import { createHash } from "node:crypto";
import { formatLogEntry } from "../domain/log-entry.js";
import { agentPaths, logPath } from "../domain/paths.js";
import type { AgentPane, ScreenPort } from "../domain/ports.js";
import { decideWatch, type WatchDecision, type WatchMemory } from "../domain/screens/decide-watch.js";
import { detectScreen } from "../domain/screens/detect.js";
import { SCREEN_RULES } from "../domain/screens/screen-presets.js";
import type { PresetName } from "../domain/runtimes/runtime-presets.js";
import { describeFix } from "../domain/screens/fixes.js";
import type { ScreenState } from "../domain/screens/screen-state.js";
import type { LaunchSpec } from "../domain/state.js";
import { readAgentStatus, writeAgentStatus } from "../domain/lifecycle/agent-status-file.js";
import { filesPort } from "../adapters/fs/files-port.js";
import { appendLines } from "../adapters/fs/files.js";
import { readLaunchSpec } from "../domain/lifecycle/launch-file.js";
import { isAlive as isProcessAlive } from "../adapters/process.js";
import { ResumeKickoffs } from "./resume-kickoff-service.js";

// A dead pane whose screen names no reason is looked at once more after this long, before it counts as a crash.
const DEAD_SCREEN_SETTLE_MS = 300;

export type { ScreenPort };

// Only a belt to the pid's braces: at 30 s, 64 agents' launch.json cost the idle daemon two file reads a second.
const SPEC_RECHECK_MS = 300_000;

export interface WatchOutcome {
  agent: string;
  screen: ScreenState;
  decision: WatchDecision;
  /** What was typed, if anything. */
  typed: string | null;
}

interface Seen extends WatchMemory {
  hash: string;
  since: number;
  /** The last decision recorded, so an unchanged one is not written again every tick. */
  recorded: string;
}

/**
 * Reads each agent's screen once per tick and acts on it: nudges an idle agent, answers a trust dialog when
 * the org allows it, waits out a usage limit, marks a login or network problem `blocked` with its fix.
 * Never types into a pane whose program is not running.
 */
export class ScreenWatch {
  private readonly seen = new Map<string, Seen>();
  // Every look needs each agent's launch.json, which changes only on up and reload. A reload that changes an agent's
  // launch restarts its program, so a pane's process keeps its spec; it is read again now and then all the same.
  private readonly specs = new Map<string, { pid: number; at: number; spec: LaunchSpec | undefined }>();
  private readonly kickoffs: ResumeKickoffs;
  /** Panes captured by the last look; undefined before the first. */
  private watching: number | undefined;

  constructor(
    private readonly state: string,
    private readonly port: ScreenPort,
    private readonly isAlive: (pid: number) => boolean = isProcessAlive,
  ) {
    this.kickoffs = new ResumeKickoffs(state);
  }

  /** One look at every pane given (as the supervisor just listed them). */
  async tick(panes: AgentPane[], now = Date.now()): Promise<WatchOutcome[]> {
    const specs = await Promise.all(panes.map((pane) => this.specFor(pane, now)));
    // A generic program's screen is only ever a shell or unknown, which nothing acts on: its pane is not captured.
    const watched = panes.filter(
      (_, index) => specs[index]?.runtime && SCREEN_RULES[specs[index].runtime.preset].length > 0,
    );
    this.watching = watched.length;
    const screens = await this.port.capture(watched.map((pane) => pane.id));
    this.kickoffs.retain(new Set(watched.map((pane) => pane.agent)));
    const outcomes: WatchOutcome[] = [];
    for (const pane of watched) {
      const spec = specs[panes.indexOf(pane)]!;
      const text = screens.get(pane.id);
      if (text === undefined) continue;
      outcomes.push(await this.watchOne(pane, spec, text, now));
    }
    return outcomes;
  }

  /** The last look captured no pane (every agent a generic program): a listing a few seconds old serves the next. */
  watchesNone(): boolean {
    return this.watching === 0;
  }

  /** A resumed CLI's kickoff waits on its prompt: the next look should come soon. */
  isWaitingOnPrompt(): boolean {
    return this.kickoffs.isWaiting();
  }

  /** For a dead pane: why only a person can get it going again (the supervisor's whyBlocked), or undefined. */
  async whyBlocked(pane: AgentPane): Promise<string | undefined> {
    const spec = await this.loadSpec(pane.agent);
    if (!spec?.runtime) return undefined;
    const first = await this.readBlock(pane, spec, spec.runtime);
    if (first !== undefined) return first;
    // tmux can mark a pane dead before it has drawn the program's
    // last output (a CLI that prints why and exits at once).
    await new Promise((resolve) => setTimeout(resolve, DEAD_SCREEN_SETTLE_MS));
    return this.readBlock(pane, spec, spec.runtime);
  }

  private async readBlock(
    pane: AgentPane,
    spec: LaunchSpec,
    runtime: NonNullable<LaunchSpec["runtime"]>,
  ): Promise<string | undefined> {
    const text = (await this.port.capture([pane.id])).get(pane.id);
    if (text === undefined) return undefined;
    const screen = detectScreen(runtime.preset, text.split("\n"), false);
    const decision = decideWatch({
      screen,
      alive: false,
      unchangedMs: 0,
      now: Date.now(),
      memory: emptyMemory(),
      settings: runtime.watch,
      fix: fixFor(screen, spec),
    });
    return decision.kind === "block" ? `${decision.reason} — ${decision.fix}` : undefined;
  }

  private async specFor(pane: AgentPane, now: number): Promise<LaunchSpec | undefined> {
    const known = this.specs.get(pane.agent);
    if (known && known.pid === pane.pid && now - known.at < SPEC_RECHECK_MS) return known.spec;
    const spec = await this.loadSpec(pane.agent);
    this.specs.set(pane.agent, { pid: pane.pid, at: now, spec });
    return spec;
  }

  private loadSpec(agent: string): Promise<LaunchSpec | undefined> {
    return readLaunchSpec(filesPort, this.state, agent);
  }

  private async watchOne(pane: AgentPane, spec: LaunchSpec, text: string, now: number): Promise<WatchOutcome> {
    const runtime = spec.runtime!;
    const hash = createHash("sha1").update(text).digest("hex");
    const previous = this.seen.get(pane.agent);
    const seen: Seen =
      previous && previous.hash === hash
        ? previous
        : { ...(previous ?? { ...emptyMemory(), recorded: "" }), hash, since: now };
    this.seen.set(pane.agent, seen);
    const alive = !pane.dead && this.isAlive(pane.pid);
    const screen = detectScreen(runtime.preset, text.split("\n"), alive);
    const decision = decideWatch({
      screen,
      alive,
      unchangedMs: now - seen.since,
      now,
      memory: seen,
      settings: runtime.watch,
      fix: fixFor(screen, spec),
    });
    const look = { screen, preset: runtime.preset };
    const typed = await this.act(pane, decision, seen, now, look);
    await this.record(pane, spec, screen, decision, typed, seen, now);
    // A resumed CLI that dropped its kickoff gets it typed at its prompt, long before an idle nudge would come.
    const kickoff = await this.kickoffs.look({
      pane, spec, screen, alive, unchangedMs: now - seen.since, now,
      canType: async () => typed === null && (await this.canType(pane, look)),
      type: (text) => this.port.sendLine(pane.id, text),
    });
    return { agent: pane.agent, screen, decision, typed: typed ?? kickoff };
  }

  private async act(
    pane: AgentPane,
    decision: WatchDecision,
    seen: Seen,
    now: number,
    look: { screen: ScreenState; preset: PresetName },
  ): Promise<string | null> {
    if (decision.kind === "wait") seen.waitUntil = decision.until;
    if (decision.kind !== "nudge" && decision.kind !== "answer-trust") return null;
    if (!(await this.canType(pane, look))) return null;
    if (decision.kind === "nudge") {
      await this.port.sendLine(pane.id, decision.text);
      seen.nudges.push(now);
      seen.waitUntil = null;
      return decision.text;
    }
    await this.port.sendKeys(pane.id, decision.keys);
    seen.trustAnswers.push(now);
    return decision.keys.join(" ");
  }

  private async canType(pane: AgentPane, look: { screen: ScreenState; preset: PresetName }): Promise<boolean> {
    // The program may have died since the capture: a line typed now would land in whatever replaced it.
    if (pane.dead || !this.isAlive(pane.pid) || (this.port.paneAlive && !(await this.port.paneAlive(pane.id))))
      return false;
    // A screen between two states (a dialog closing, a menu
    // opening) must not take keys meant for the first: look again.
    return this.stillShows(pane.id, look.screen, look.preset);
  }

  private async stillShows(paneId: string, screen: ScreenState, preset: PresetName): Promise<boolean> {
    const text = (await this.port.capture([paneId])).get(paneId);
    if (text === undefined) return false;
    const again = detectScreen(preset, text.split("\n"), true);
    const keys = (state: ScreenState) => (state.kind === "trust-dialog" ? state.keys.join(" ") : "");
    return again.kind === screen.kind && keys(again) === keys(screen);
  }

  private async record(
    pane: AgentPane,
    spec: LaunchSpec,
    screen: ScreenState,
    decision: WatchDecision,
    typed: string | null,
    seen: Seen,
    now: number,
  ): Promise<void> {
    const key = `${decision.kind} ${decision.kind === "wait" ? decision.until : ""} ${screen.kind}`;
    if (key === seen.recorded && typed === null) return;
    seen.recorded = key;
    const paths = agentPaths(this.state, pane.agent);
    const at = new Date(now).toISOString();
    await appendLines(paths.events, [
      JSON.stringify({
        at,
        type: "screen",
        screen: screen.kind,
        decision: decision.kind,
        reason: decision.reason,
        typed,
      }),
    ]);
    const status = await readAgentStatus(filesPort, this.state, pane.agent);
    const timeline = (op: string, body: string) =>
      appendLines(logPath(this.state), [formatLogEntry({ date: new Date(now), op, title: pane.agent, body })]);
    if (decision.kind === "block") {
      const reason = `${decision.reason} — ${decision.fix}`;
      if (status && status.reason !== reason) {
        const blocked = { ...status, state: "blocked" as const, reason, updatedAt: at };
        await writeAgentStatus(filesPort, this.state, pane.agent, blocked);
      }
      await timeline("blocked", reason);
    } else if (
      status?.state === "blocked" &&
      !isDiskBlock(status.reason) &&
      (screen.kind === "working" || screen.kind === "idle") &&
      !pane.dead
    ) {
      const reason = `running ${spec.argv[0]} (unblocked: ${screen.kind})`;
      await writeAgentStatus(filesPort, this.state, pane.agent, { ...status, state: "running", reason, updatedAt: at });
      await timeline("unblocked", screen.reason);
    }
    if (decision.kind === "wait")
      await timeline("waiting", `${decision.reason}; resumes at ${new Date(decision.until).toISOString()}`);
    if (typed !== null)
      await timeline(
        decision.kind === "nudge" ? "nudge" : "trust",
        `${decision.reason}; typed ${JSON.stringify(typed)}`,
      );
  }
}

function fixFor(screen: ScreenState, spec: LaunchSpec): string {
  const runtime = spec.runtime!;
  const homeEnv = Object.keys(spec.env).find((name) => spec.env[name] === runtime.home) ?? null;
  return describeFix(screen, {
    agent: spec.agent,
    runtime: runtime.name,
    program: spec.argv[0]!,
    home: runtime.home,
    homeEnv,
  });
}

function emptyMemory(): WatchMemory {
  return { nudges: [], trustAnswers: [], waitUntil: null };
}
