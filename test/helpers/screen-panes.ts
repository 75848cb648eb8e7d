import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { processRunner } from "../../src/adapters/process.js";
import type { ScreenPort } from "../../src/daemon/screen-watch.js";
import { Tmux } from "../../src/adapters/tmux/tmux.js";
import type { AgentPane } from "../../src/domain/ports.js";
import type { LaunchRuntime } from "../../src/domain/runtimes/launch.js";
import type { AgentStatus, LaunchSpec } from "../../src/domain/state.js";

/** A private tmux server whose panes run one program each, directly, and stay visible after they exit. */
export class PaneLab {
  readonly socket = `orgscreen${process.pid}x${Math.floor(Math.random() * 1e6)}`;
  private started = false;
  private readonly ports: ScreenPort[] = [];

  tmux(args: string[]): string {
    return execFileSync("tmux", ["-L", this.socket, "-f", "/dev/null", ...args], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  }

  /** Starts `argv` in a new pane with `env`; returns the pane id. */
  start(agent: string, argv: string[], env: Record<string, string>, cwd: string): string {
    const envArgs = Object.entries(env).flatMap(([key, value]) => ["-e", `${key}=${value}`]);
    // remain-on-exit before the first program starts: one that exits at once still leaves its pane and status.
    const create = this.started
      ? ["split-window", "-t", "lab"]
      : [
          "start-server",
          ";",
          "set",
          "-g",
          "remain-on-exit",
          "on",
          ";",
          "new-session",
          "-d",
          "-s",
          "lab",
          "-x",
          "120",
          "-y",
          "40",
        ];
    const id = this.tmux([...create, "-P", "-F", "#{pane_id}", "-c", cwd, ...envArgs, ...argv]).trim();
    this.started = true;
    this.tmux(["set-option", "-p", "-t", id, "@org_agent", agent]);
    return id;
  }

  panes(): AgentPane[] {
    return this.tmux([
      "list-panes",
      "-s",
      "-t",
      "lab",
      "-F",
      "#{@org_agent}\t#{pane_id}\t#{pane_pid}\t#{pane_dead}\t#{pane_dead_status}",
    ])
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const [agent, id, pid, dead, status] = line.split("\t");
        return {
          agent: agent!,
          id: id!,
          pid: Number(pid),
          dead: dead === "1",
          exitCode: status ? Number(status) : null,
          exitSignal: null,
          exitedAt: null,
        };
      });
  }

  screen(id: string): string {
    return this.tmux(["capture-pane", "-p", "-t", id]);
  }

  /** The screen port the daemon itself uses on this server (a control-mode client), closed with the lab. */
  openScreenPort(): ScreenPort {
    const port = new Tmux(processRunner, this.socket, "lab").openScreenPort();
    this.ports.push(port);
    return port;
  }

  close(): void {
    for (const port of this.ports.splice(0)) port.close?.();
    try {
      this.tmux(["kill-server"]);
    } catch {
      // Already gone: nothing of ours is left.
    }
  }
}

/** launch.json and status.json of one watched agent, as `org up` and the supervisor write them. */
export function writeAgentState(
  state: string,
  agent: string,
  runtime: Partial<LaunchRuntime> & Pick<LaunchRuntime, "preset">,
  pid: number | null,
): void {
  const dir = join(state, "agents", agent);
  mkdirSync(dir, { recursive: true });
  const full: LaunchRuntime = {
    name: "r",
    sessionId: "s",
    home: join(dir, "home"),
    resumeArgv: null,
    transcripts: null,
    promptFile: null,
    seed: [],
    watch: { nudge: "Keep going.", nudgeAfterMs: 60_000, nudgesPerHour: 3, answerTrust: false },
    ...runtime,
  };
  const spec: LaunchSpec = {
    agent,
    role: "researcher",
    argv: ["claude"],
    cwd: dir,
    env: { CLAUDE_CONFIG_DIR: full.home },
    restart: "on-failure",
    backoffMs: 1000,
    maxBackoffMs: 30_000,
    maxRestarts: 10,
    healthyAfterMs: 60_000,
    runtime: full,
  };
  writeFileSync(join(dir, "launch.json"), JSON.stringify(spec));
  writeRunningStatus(state, agent, pid, "running claude");
}

/** status.json of an agent whose program `pid` runs, as the supervisor writes it. */
export function writeRunningStatus(state: string, agent: string, pid: number | null, reason = "running"): void {
  const dir = join(state, "agents", agent);
  mkdirSync(dir, { recursive: true });
  const status: AgentStatus = {
    agent,
    state: "running",
    pid,
    startedAt: new Date().toISOString(),
    restarts: 0,
    consecutiveFailures: 0,
    lastExit: null,
    reason,
    updatedAt: new Date().toISOString(),
  };
  writeFileSync(join(dir, "status.json"), JSON.stringify(status));
}
