import type { ChildProcess } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import type { AgentPane, ChildTracker, PaneHost, PaneInfo, PaneLaunch } from "../../domain/ports.js";
import { isRunningProcess, startChild } from "../process.js";
import { appendLines } from "../fs/files.js";
import { appendCommand, respawnArgs, startLogArgs, tmuxArgv } from "./args.js";
import type { TmuxControl } from "./control.js";

const STATUS_GRACE_MS = 2000;
// While a dead pane's exit status is still awaited, look again this soon whatever the caller asked.
const GRACE_LOOK_MS = 500;
const CHANGED = "org-panes-changed";
// tmux signals the channel on each of these: a program exited, a pane closed or was made. (tmux 3.3 has no
// after-respawn-pane; a respawn is ours, and the supervisor looks often until the new program is seen.)
const CHANGE_HOOKS = ["pane-died", "pane-exited", "after-split-window", "after-kill-pane"];

/** Agent panes of one tmux session, supervised through a single control-mode client: a poll spawns nothing. */
export class TmuxPaneHost implements PaneHost {
  constructor(
    private readonly control: TmuxControl,
    private readonly session: string,
    private readonly format: string,
    private readonly parsePane: (line: string) => PaneInfo,
    private readonly socket: string,
    private readonly children?: ChildTracker,
  ) {}

  private hooked = false;
  private closed = false;
  private change: { child: ChildProcess; done: Promise<"changed" | "gone"> } | undefined;

  /** Resolves when tmux says a pane changed, or after `ms`: an idle org is looked at seldom, a dying agent at once. */
  async waitForChange(ms: number): Promise<void> {
    const wait = this.waitingSince.size > 0 ? Math.min(ms, GRACE_LOOK_MS) : ms;
    if (this.closed) return;
    // The hooks come with a look (listAgentPanes): with none yet, or tmux gone since, nothing would signal.
    if (!this.hooked) {
      await sleep(wait);
      return;
    }
    // One waiting client stays across calls; a signal that comes while none waits is kept by tmux for the next.
    // A plain client, not a control-mode one: there wait-for does not hold its reply until the signal.
    this.change ??= this.startWaiter();
    let timer: NodeJS.Timeout | undefined;
    const woke = await Promise.race([
      this.change.done,
      new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), wait))),
    ]);
    clearTimeout(timer);
    // A server that went away answers at once: wait out the period rather than spin; the next look says what is left.
    if (woke === "gone" && !this.closed) {
      this.hooked = false;
      await sleep(wait);
    }
  }

  async listAgentPanes(): Promise<AgentPane[] | undefined> {
    // Hooked before the first look, in the same command line: a pane that dies after this look still signals.
    const hooks = this.hooked ? [] : CHANGE_HOOKS.map((hook) => ["set-hook", "-g", hook, `wait-for -S ${CHANGED}`]);
    const reply = await this.control.run([...hooks, ["list-panes", "-s", "-t", `=${this.session}`, "-F", this.format]]);
    if (!reply || reply.error !== undefined || reply.blocks.length <= hooks.length) return undefined;
    this.hooked = true;
    const panes = reply.blocks[hooks.length]!.split("\n").filter(Boolean).map(this.parsePane);
    for (const pid of this.waitingSince.keys())
      if (!panes.some((pane) => pane.pid === pid)) this.waitingSince.delete(pid);
    return panes.flatMap((pane) => {
      const agent = pane.options["@org_agent"];
      if (!agent) return [];
      // tmux marks a pane dead when its terminal closes, maybe before the program has ended or been reaped: wait
      // for the status, but not forever.
      const dead = pane.dead && (pane.deadStatus !== null || Boolean(pane.deadSignal) || this.statusLost(pane.pid));
      return [
        {
          agent,
          id: pane.id,
          pid: pane.pid,
          dead,
          exitCode: dead ? pane.deadStatus : null,
          exitSignal: pane.deadSignal ?? null,
          exitedAt: pane.deadAt ?? null,
          logged: pane.piped ?? true,
        },
      ];
    });
  }

  private readonly waitingSince = new Map<number, number>();

  private statusLost(pid: number): boolean {
    if (isRunningProcess(pid)) return false;
    const since = this.waitingSince.get(pid);
    if (since === undefined) {
      this.waitingSince.set(pid, Date.now());
      // Ended but not reaped: tmux 3.3 under load can miss a SIGCHLD. Another child of its own ending makes it reap
      // them all, so the real exit status arrives (and pane-died fires) instead of none.
      void this.control.run([["run-shell", "-b", "true"]]);
      return false;
    }
    return Date.now() - since >= STATUS_GRACE_MS;
  }

  async respawn(id: string, launch: PaneLaunch, logFile?: string): Promise<void> {
    // One command line: the pipe is there before the new program prints anything.
    const reply = await this.control.run([
      respawnArgs(id, launch),
      ...(logFile ? [["pipe-pane", "-o", "-t", id, appendCommand(logFile)]] : []),
    ]);
    if (!reply) throw new Error(`cannot respawn pane ${id}: tmux is not running`);
    if (reply.error !== undefined) throw new Error(`cannot respawn pane ${id}: ${reply.error}`);
  }

  async startLog(id: string, file: string, dead: boolean): Promise<void> {
    // tmux pipes no dead pane: its last screen is written once, and the respawn that revives it starts the pipe.
    const reply = await this.control.run(
      dead ? [["capture-pane", "-p", "-J", "-S", "-", "-t", id]] : startLogArgs(this.socket, id, file),
    );
    if (!reply || reply.error !== undefined)
      throw new Error(`cannot log pane ${id}: ${reply?.error ?? "tmux is not running"}`);
    // The dead-pane line sits at the screen's foot: the empty rows above it say nothing.
    if (dead) await appendLines(file, [reply.blocks[0]!.replace(/\n{3,}/g, "\n\n").replace(/\s+$/, "")]);
  }

  async setStatus(id: string, status: string): Promise<void> {
    await this.control.run([["set-option", "-p", "-t", id, "@org_status", status]]);
  }

  private startWaiter(): { child: ChildProcess; done: Promise<"changed" | "gone"> } {
    // A daemon killed with -9 leaves it blocked on the channel: the next daemon ends it by this record.
    const ticket = this.children?.announce("waiter", `tmux wait-for ${CHANGED} on ${this.socket}`, false);
    const child = startChild(tmuxArgv(this.socket, ["wait-for", CHANGED], { noStart: true }), {
      stdio: "ignore",
      env: { ...process.env, TMUX: "", ...ticket?.env },
    });
    ticket?.started(child.pid);
    const done = new Promise<"changed" | "gone">((resolve) => {
      child.on("error", () => resolve("gone"));
      child.on("exit", (code) => resolve(code === 0 ? "changed" : "gone"));
    }).finally(() => {
      ticket?.ended(child.pid);
      if (this.change?.child === child) this.change = undefined;
    });
    return { child, done };
  }

  close(): void {
    this.closed = true;
    this.change?.child.kill();
    this.control.close();
  }
}
