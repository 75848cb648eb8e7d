import { join, relative } from "node:path";
import { parseDuration, type OrgConfig } from "../domain/config/index.js";
import { messageIds } from "../domain/messages/deliver.js";
import { newMessageId, parseMessage } from "../domain/messages/message-head.js";
import { inboxPaths, readMessageSettings } from "../domain/messages/mail-port.js";
import {
  checkAlive, chooseFullLookMs, countNoticeLines, decideNotice, type NoticeOutcome, type PaneLook, type PendingNotice,
} from "../domain/messages/notify.js";
import { orgPaths } from "../domain/paths.js";
import type { NoticePort } from "../domain/ports.js";
import type { OrgRecord } from "../domain/state.js";
import { readLaunchSpec } from "../domain/lifecycle/launch-file.js";
import { readAgentStatus } from "../domain/lifecycle/agent-status-file.js";
import { filesPort } from "../adapters/fs/files-port.js";
import { detectScreen } from "../domain/screens/detect.js";
import { typeNotice } from "./notice-typing.js";
import { readText, watchDir } from "../adapters/fs/files.js";
import { appendNotification } from "../adapters/store/notification-log.js";
import { isAlive } from "../adapters/process.js";
import { ensureDir, listDir, modifiedMs } from "../adapters/fs/dir.js";

const CONFIRM_MS = 1000;
// fs.watch is the fast path; a rescan of every inbox now and then catches a dropped event. A local disk's inotify
// drops none, so there it is only a safety net: 64 idle inboxes listed every 10 s cost the daemon 6 reads a second.
const RESCAN_MS = 60_000;
// Panes added since (a reload) are looked for this often.
const DISCOVER_MS = 10_000;
// Slurm's shared filesystem drops watch events: there a message found by the rescan alone waits at most this long.
const SHARED_FS_RESCAN_MS = 10_000;
// After typing into a pane, it is looked at for this many idle periods, until what the typing set off has settled.
const SETTLE_LOOKS = 3;
// A message file that does not parse and changed this recently may be half written.
const SETTLE_MS = 500;
// With nothing to announce, every pane is looked at this seldom: a message's own look, compared with this one, tells
// a pane still since (typed at once) from one that changed (typed once it has been still for messages.idle).
const IDLE_LOOK_MS = 30_000;
// A full look that finds every pane as before doubles the next wait, up to this: a still pane stays "still since", so a
// later look only makes a changed pane wait messages.idle, as a fresh one would
// (64 idle panes: 128 tmux commands a look).
const MAX_IDLE_LOOK_MS = 240_000;

/**
 * Watches every agent's inbox and types one short line into its pane when a message arrives: only while its program
 * runs and the pane has been still for `messages.idle`. Agents and panes are found by the @org_agent label the grid
 * carries (tmux, or the pty host), so a reload or a stale org.json never misdirects a line.
 */
export class Notifier {
  private readonly state: string;
  /** Messages older than the notifier were announced by an earlier one, or found by the agent at its start. */
  private readonly since = newMessageId(new Date(), "00000000");
  private panes = new Map<string, string>();
  private readonly known = new Map<string, Set<string>>();
  private readonly pending = new Map<string, PendingNotice[]>();
  private readonly looks = new Map<string, PaneLook>();
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  private readonly unwatch: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  private ticking = false;
  private lastFullLook = 0;
  private fullLookMs = IDLE_LOOK_MS;
  private readonly typedAt = new Map<string, number>();
  private lastRescan = Date.now();
  private lastDiscover = Date.now();

  private constructor(
    private readonly root: string,
    private readonly rescanMs: number,
    private readonly settings: { idleMs: number; busyTimeoutMs: number; quiet: string[] },
    private readonly say: (line: string) => void,
    private readonly io: NoticePort,
  ) {
    this.state = orgPaths(root).state;
  }

  /**
   * Start watching the panes behind `io` (the grid's NoticePort); resolves
   * once every agent pane found is watched. Off when messages.notify is false.
   */
  static async start(opts: {
    record: Pick<OrgRecord, "root" | "backend">; config: OrgConfig | undefined;
    say: (line: string) => void; io: NoticePort;
  }): Promise<{ stop(): Promise<void> }> {
    const settings = readMessageSettings(opts.config);
    if (!settings.notify) {
      opts.io.close();
      return { stop: async () => undefined };
    }
    const idleMs = parseDuration(settings.idle);
    const rescanMs = opts.record.backend === "slurm" ? SHARED_FS_RESCAN_MS : RESCAN_MS;
    const timing = { idleMs, busyTimeoutMs: parseDuration(settings.busy_timeout), quiet: settings.quiet };
    const notifier = new Notifier(opts.record.root, rescanMs, timing, opts.say, opts.io);
    await notifier.discover();
    // Twice per idle period: a still pane is known as still the moment a message comes, and the grid is asked rarely.
    notifier.timer = setInterval(() => void notifier.tick(), Math.min(1000, Math.max(100, idleMs / 2)));
    return { stop: () => notifier.stop() };
  }

  private async stop(): Promise<void> {
    clearInterval(this.timer);
    for (const close of this.unwatch) close();
    await Promise.all(this.running.values());
    this.io.close();
  }

  /** Map agents to panes by label, and watch the inbox of each agent seen for the first time. */
  private async discover(): Promise<void> {
    const panes = await this.io.listAgentPanes();
    if (!panes) return;
    this.panes = panes;
    for (const agent of panes.keys()) {
      if (this.known.has(agent)) continue;
      const { inbox } = inboxPaths(this.state, agent);
      await ensureDir(inbox);
      this.known.set(agent, new Set(messageIds(await listDir(inbox)).filter((id) => id < this.since)));
      this.unwatch.push(watchDir(inbox, (name) => {
        if (!name || name.endsWith(".md")) void this.scan(agent);
      }));
      await this.scan(agent);
    }
  }

  private async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      const now = Date.now();
      // Panes with messages waiting, and panes just typed into until
      // they settle: their next message then knows they are still.
      for (const [pane, at] of this.typedAt)
        if (now - at > SETTLE_LOOKS * this.settings.idleMs) this.typedAt.delete(pane);
      const withMessages = [...this.known.keys()].filter((agent) => this.pending.get(agent)?.length);
      const panesWithMessages = withMessages.flatMap((agent) => this.panes.get(agent) ?? []);
      const waiting = [...new Set([...panesWithMessages, ...this.typedAt.keys()])];
      const full = Date.now() - this.lastFullLook >= this.fullLookMs;
      if (full) this.lastFullLook = Date.now();
      if (full) {
        const changed = await this.refreshLooks([...this.panes.values()]);
        this.fullLookMs = chooseFullLookMs(this.fullLookMs, changed, IDLE_LOOK_MS, MAX_IDLE_LOOK_MS);
      } else if (waiting.length > 0) await this.refreshLooks(waiting);
      // Panes added by a reload are found (and their inboxes watched) as soon as before: one listing, no inbox read.
      if (Date.now() - this.lastDiscover >= DISCOVER_MS) {
        this.lastDiscover = Date.now();
        await this.discover();
      }
      if (Date.now() - this.lastRescan >= this.rescanMs) {
        this.lastRescan = Date.now();
        for (const agent of this.known.keys()) await this.scan(agent);
      }
      for (const agent of this.known.keys()) if (this.pending.get(agent)?.length) this.attempt(agent, false);
    } finally {
      this.ticking = false;
    }
  }

  /** New message files become pending notices; a file that cannot be read is reported and skipped. */
  private async scan(agent: string): Promise<void> {
    const { inbox } = inboxPaths(this.state, agent);
    const ids = messageIds(await listDir(inbox));
    const known = this.known.get(agent)!;
    // Claimed before any await, so two scans racing on one event never announce a message twice.
    const fresh = ids.filter((id) => !known.has(id));
    fresh.forEach((id) => known.add(id));
    if (fresh.length === 0) return;
    const seenAt = Date.now();
    for (const id of fresh) {
      const file = join(inbox, `${id}.md`);
      const text = await readText(file).catch(() => undefined);
      if (text === undefined) continue;
      const parsed = parseMessage(text);
      if (!parsed.ok && (await this.stillBeingWritten(file))) {
        // A file written in place (not by org send's rename) is
        // seen the moment it is created: judge it once it settles.
        known.delete(id);
        setTimeout(() => void this.scan(agent), SETTLE_MS).unref();
        continue;
      }
      if (!parsed.ok) {
        this.say(
          `${relative(this.root, file)}:${parsed.line}: ${parsed.reason} — ${parsed.fix}; \`org inbox\` skips it`,
        );
        continue;
      }
      const { from, kind, time, extra } = parsed.message;
      // A verdict asked for by `org submit --no-wait` reaches the agent no other way: quiet kinds are typed then too.
      if (this.settings.quiet.includes(kind) && extra.notify !== "always") continue;
      const queue = this.pending.get(agent) ?? [];
      queue.push({ id, from, kind, sentAt: Date.parse(time), seenAt });
      this.pending.set(agent, queue);
    }
    if (this.pending.get(agent)?.length) this.attempt(agent, true);
  }

  private async stillBeingWritten(file: string): Promise<boolean> {
    const modified = await modifiedMs(file);
    return Date.now() - modified < SETTLE_MS;
  }

  /** One notification at a time per agent; a request that comes meanwhile runs right after. */
  private attempt(agent: string, fresh: boolean): void {
    if (this.running.has(agent)) {
      this.again.add(agent);
      return;
    }
    const run = this.notify(agent, fresh)
      .catch((error: Error) => this.say(`notify ${agent}: ${error.message}`))
      .finally(() => {
        this.running.delete(agent);
        if (this.again.delete(agent)) this.attempt(agent, true);
      });
    this.running.set(agent, run);
  }

  private async notify(agent: string, fresh: boolean): Promise<void> {
    const queue = this.pending.get(agent) ?? [];
    const pane = this.panes.get(agent);
    if (queue.length === 0 || pane === undefined) return;
    const live = await this.checkLive(agent);
    if (live.alive && fresh) await this.refreshLooks([pane]);
    const look = this.looks.get(pane);
    const screen = look && (await this.readScreen(agent, look.text));
    const decision = decideNotice({
      agent, live, look, pending: queue, now: Date.now(), ...this.settings, ...(screen ? { screen } : {}),
    });
    if (decision.kind === "wait") return;
    const batch = queue.splice(0);
    if (decision.kind === "skip")
      return this.recordOutcome(agent, pane, batch, { outcome: decision.outcome, reason: decision.reason });
    const lookAt = async () => {
      await this.refreshLooks([pane]);
      return this.looks.get(pane)?.text;
    };
    let reason = "";
    const shownBefore = countNoticeLines((await lookAt()) ?? "", decision.line);
    for (let attempts = 1; attempts <= 2; attempts++) {
      const typed = await typeNotice(this.io, pane, decision.line, `org-notify-${agent}`, lookAt, CONFIRM_MS,
        shownBefore);
      this.typedAt.set(pane, Date.now());
      if (typed.kind === "typed") {
        const latencyMs = Date.now() - Math.min(...batch.map((notice) => notice.sentAt));
        return this.recordOutcome(agent, pane, batch, { outcome: "typed", attempts, latencyMs });
      }
      reason = typed.reason;
      // The retry goes only to a program that still runs.
      const again = await this.checkLive(agent);
      if (!again.alive)
        return this.recordOutcome(agent, pane, batch, { outcome: "skipped-dead", reason: again.reason, attempts });
    }
    this.say(`notify ${agent}: the pane did not take the notification, twice (${reason}); ` +
      "the message stays in its inbox");
    return this.recordOutcome(agent, pane, batch, { outcome: "failed", attempts: 2, reason });
  }

  /** A known CLI's screen says whether it is at its prompt; any other program is judged by stillness alone. */
  private async readScreen(agent: string, text: string): Promise<{ ready: boolean; reason: string } | undefined> {
    const launch = await readLaunchSpec(filesPort, this.state, agent);
    const preset = launch?.runtime?.preset;
    if (!preset || preset === "generic") return undefined;
    // The look's first line is the pane's cursor and history, not a screen row.
    const state = detectScreen(preset, text.split("\n").slice(1));
    // Only at its prompt: a CLI busy with a turn (a resumed kickoff) may drop or hold an Enter typed meanwhile.
    return { ready: state.kind === "idle", reason: state.reason };
  }

  private async checkLive(agent: string): Promise<{ alive: boolean; reason: string }> {
    const status = await readAgentStatus(filesPort, this.state, agent);
    return checkAlive(status, isAlive);
  }

  /** Whether any pane's screen changed since its last look (a first look has nothing to differ from). */
  private async refreshLooks(panes: string[]): Promise<boolean> {
    // Every pane at once; if one pane is gone that fails, so then each pane is looked at alone.
    const batch = await this.io.look(panes);
    const looks =
      batch ??
      new Map((await Promise.all(panes.map((pane) => this.io.look([pane])))).flatMap((one) => [...(one ?? [])]));
    const now = Date.now();
    let changed = false;
    for (const [pane, look] of looks) {
      const previous = this.looks.get(pane);
      const same = previous !== undefined && previous.text === look.text;
      changed ||= previous !== undefined && !same;
      this.looks.set(pane, { ...look, changedAt: same ? previous.changedAt : now });
    }
    return changed;
  }

  private async recordOutcome(agent: string, pane: string, batch: PendingNotice[],
    result: { outcome: NoticeOutcome; attempts?: number; latencyMs?: number; reason?: string }): Promise<void> {
    const detectMs = Math.max(...batch.map((notice) => notice.seenAt - notice.sentAt));
    const line = {
      at: new Date().toISOString(), ...result, ids: batch.map((notice) => notice.id),
      from: batch.map((notice) => notice.from), pane, detectMs,
    };
    await appendNotification(this.state, agent, line);
  }
}
