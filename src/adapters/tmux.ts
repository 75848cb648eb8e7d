import { rm } from "node:fs/promises";
import { join } from "node:path";
import { OrgError } from "../org/errors.js";
import type { PaneInfo, PaneSpec, TmuxPort } from "../org/ports.js";
import type { Runner } from "./process.js";

const OPTION_KEYS = ["@org_agent", "@org_role", "@org_gpu", "@org_status"] as const;
const PANE_FORMAT = ["#{pane_id}", "#{pane_pid}", "#{pane_dead}", "#{pane_dead_status}", ...OPTION_KEYS.map((key) => `#{${key}}`)].join("\t");

// Labels live in pane options because agents overwrite pane titles with OSC 2.
const BORDER_FORMAT = " #{?@org_agent,#{@org_agent} | #{@org_role} | gpu #{@org_gpu} | #{@org_status},org daemon} ";

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** tmux on a private socket, never the user's own server, with no user config. */
export class Tmux implements TmuxPort {
  constructor(
    private readonly runner: Runner,
    readonly socket: string,
    readonly session: string,
  ) {}

  private async tmux(args: string[], allowFailure = false): Promise<string> {
    const result = await this.runner.run(["tmux", "-L", this.socket, "-f", "/dev/null", ...args], { timeoutMs: 10_000 });
    if (result.spawnError) throw new OrgError("tmux not found on PATH — install tmux ≥ 3.2 (apt-get install tmux), or run `org doctor`", "tmux");
    if (result.exitCode !== 0 && !allowFailure) {
      throw new OrgError(`tmux ${args[0]} failed: ${result.stderr.trim() || `exit ${result.exitCode}`}`, "tmux");
    }
    return result.exitCode === 0 ? result.stdout : "";
  }

  async isRunning(): Promise<boolean> {
    const result = await this.runner.run(["tmux", "-L", this.socket, "-f", "/dev/null", "has-session", "-t", `=${this.session}`], { timeoutMs: 10_000 });
    return result.exitCode === 0;
  }

  async createGrid(panes: PaneSpec[], size: { width: number; height: number }): Promise<string[]> {
    const args: string[] = [
      "start-server", ";",
      "set", "-g", "history-limit", "50000", ";",
      "set", "-g", "remain-on-exit", "on", ";",
      "set", "-g", "escape-time", "0", ";",
      "set", "-g", "exit-empty", "off", ";",
    ];
    panes.forEach((pane, index) => {
      // Split the pane just made and re-tile each time: panes stay in order and never run out of space.
      const create = index === 0
        ? ["new-session", "-d", "-s", this.session, "-n", "org", "-x", String(size.width), "-y", String(size.height)]
        : ["split-window", "-t", `${this.session}:org`];
      args.push(...create, "-c", pane.cwd, "-P", "-F", "#{pane_id}", ...pane.argv, ";");
      for (const [key, value] of Object.entries(pane.options)) args.push("set-option", "-p", key, value, ";");
      // exec: the pane logger is one process, not a shell plus cat.
      args.push("pipe-pane", "-o", `exec cat >> ${shellQuote(pane.logFile)}`, ";");
      if (index > 0) args.push("select-layout", "-t", `${this.session}:org`, "tiled", ";");
    });
    args.push(
      // A smaller client attaching must not shrink the grid for good.
      "set", "-w", "-t", `${this.session}:org`, "window-size", "manual", ";",
      "set", "-w", "-t", `${this.session}:org`, "pane-border-status", "top", ";",
      "set", "-w", "-t", `${this.session}:org`, "pane-border-format", BORDER_FORMAT,
    );
    const out = await this.tmux(args);
    return out.split("\n").filter((line) => line.startsWith("%"));
  }

  async listPanes(): Promise<PaneInfo[]> {
    const out = await this.tmux(["list-panes", "-s", "-t", `=${this.session}`, "-F", PANE_FORMAT], true);
    return out.split("\n").filter(Boolean).map((line) => {
      const [id, pid, dead, deadStatus, ...values] = line.split("\t");
      const options: Record<string, string> = {};
      OPTION_KEYS.forEach((key, index) => {
        if (values[index]) options[key] = values[index]!;
      });
      return { id: id!, pid: Number(pid), dead: dead === "1", deadStatus: deadStatus ? Number(deadStatus) : null, options };
    });
  }

  async killServer(): Promise<void> {
    await this.tmux(["kill-server"], true);
    // tmux leaves its socket file behind; ours carry our prefix, so removing it touches nothing else.
    const dir = join(process.env.TMUX_TMPDIR || "/tmp", `tmux-${process.getuid?.() ?? 0}`);
    await rm(join(dir, this.socket), { force: true });
  }

  async selectPane(pane: string): Promise<void> {
    await this.tmux(["select-pane", "-t", pane], true);
  }

  attachArgv(pane?: string): string[] {
    const target = pane ?? this.session;
    return ["tmux", "-L", this.socket, "attach-session", "-t", target];
  }
}
