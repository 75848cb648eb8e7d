import type { AgentPane, PaneHost, PaneInfo, PaneLaunch } from "../org/ports.js";
import { isRunningProcess } from "./process.js";
import { appendLines } from "./files.js";
import { appendCommand, respawnArgs, startLogArgs } from "./tmux-args.js";
import type { TmuxControl } from "./tmux-control.js";

const STATUS_GRACE_MS = 2000;

/** Agent panes of one tmux session, supervised through a single control-mode client: a poll spawns nothing. */
export class TmuxPaneHost implements PaneHost {
  constructor(
    private readonly control: TmuxControl,
    private readonly session: string,
    private readonly format: string,
    private readonly parsePane: (line: string) => PaneInfo,
    private readonly socket: string,
  ) {}

  async listAgentPanes(): Promise<AgentPane[] | undefined> {
    const reply = await this.control.run([["list-panes", "-s", "-t", `=${this.session}`, "-F", this.format]]);
    if (!reply || reply.error !== undefined || reply.blocks.length === 0) return undefined;
    const panes = reply.blocks[0]!.split("\n").filter(Boolean).map(this.parsePane);
    for (const pid of this.waitingSince.keys()) if (!panes.some((pane) => pane.pid === pid)) this.waitingSince.delete(pid);
    return panes.flatMap((pane) => {
      const agent = pane.options["@org_agent"];
      if (!agent) return [];
      // tmux marks a pane dead when its terminal closes, maybe before the program has ended or been reaped: wait
      // for the status, but not forever (under load tmux can lose the status of a program that ended at once).
      const dead = pane.dead && (pane.deadStatus !== null || Boolean(pane.deadSignal) || this.statusLost(pane.pid));
      return [{ agent, id: pane.id, pid: pane.pid, dead, exitCode: dead ? pane.deadStatus : null, exitSignal: pane.deadSignal ?? null, exitedAt: pane.deadAt ?? null, logged: pane.piped ?? true }];
    });
  }

  private readonly waitingSince = new Map<number, number>();

  private statusLost(pid: number): boolean {
    if (isRunningProcess(pid)) return false;
    const since = this.waitingSince.get(pid) ?? Date.now();
    this.waitingSince.set(pid, since);
    return Date.now() - since >= STATUS_GRACE_MS;
  }

  async respawn(id: string, launch: PaneLaunch, logFile?: string): Promise<void> {
    // One command line: the pipe is there before the new program prints anything.
    const reply = await this.control.run([respawnArgs(id, launch), ...(logFile ? [["pipe-pane", "-o", "-t", id, appendCommand(logFile)]] : [])]);
    if (!reply) throw new Error(`cannot respawn pane ${id}: tmux is not running`);
    if (reply.error !== undefined) throw new Error(`cannot respawn pane ${id}: ${reply.error}`);
  }

  async startLog(id: string, file: string, dead: boolean): Promise<void> {
    // tmux pipes no dead pane: its last screen is written once, and the respawn that revives it starts the pipe.
    const reply = await this.control.run(dead ? [["capture-pane", "-p", "-J", "-S", "-", "-t", id]] : startLogArgs(this.socket, id, file));
    if (!reply || reply.error !== undefined) throw new Error(`cannot log pane ${id}: ${reply?.error ?? "tmux is not running"}`);
    // The dead-pane line sits at the screen's foot: the empty rows above it say nothing.
    if (dead) await appendLines(file, [reply.blocks[0]!.replace(/\n{3,}/g, "\n\n").replace(/\s+$/, "")]);
  }

  async setStatus(id: string, status: string): Promise<void> {
    await this.control.run([["set-option", "-p", "-t", id, "@org_status", status]]);
  }

  close(): void {
    this.control.close();
  }
}
