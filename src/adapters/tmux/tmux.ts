import { rm } from "node:fs/promises";
import { pathExists } from "../fs/files.js";
import { constants } from "node:os";
import { join } from "node:path";
import { OrgError } from "../../domain/errors.js";
import type {
  ChildTracker, NoticePort, PaneFeed, PaneHost, PaneInfo, PaneLaunch, PaneSpec, ScreenPort, PanesPort,
} from "../../domain/ports.js";
import type { Runner } from "../process.js";
import { NOTICE_REPLY_TIMEOUT_MS, openTmuxNoticePort } from "./notice-client.js";
import { TmuxControl } from "./control.js";
import { TmuxPaneHost } from "./pane-host.js";
import { controlScreenPort } from "./control-screen-port.js";
import { appendCommand, envArgs, quote, respawnArgs, tmuxArgv } from "./args.js";
import { filterAgentEnv } from "../../domain/lifecycle/secrets.js";

const OPTION_KEYS = ["@org_agent", "@org_role", "@org_gpu", "@org_status"] as const;
const PANE_FORMAT = [
  "#{pane_id}", "#{pane_pid}", "#{pane_dead}", "#{pane_dead_status}", "#{pane_dead_signal}", "#{pane_dead_time}",
  "#{pane_pipe}", ...OPTION_KEYS.map((key) => `#{${key}}`),
].join("\t");

const DEAD_PANE_FORMAT = "[org] #{@org_agent} " +
  "#{?pane_dead_signal,killed by signal #{pane_dead_signal},exited with status #{pane_dead_status}} — " +
  "#{@org_status}; see: org logs #{@org_agent}";

// Labels live in pane options because agents overwrite pane titles with OSC 2.
const BORDER_FORMAT = " #{?@org_agent,#{@org_agent} | #{@org_role} | gpu #{@org_gpu} | #{@org_status},org daemon} ";

// Under tmux's 16 KB message limit, with room for the largest pane's arguments.
const CHUNK_BYTES = 10_000;

function byteLength(args: string[]): number {
  return args.reduce((sum, arg) => sum + Buffer.byteLength(arg) + 1, 0);
}

/** The variables with one value in every pane that has an environment. */
function commonEnv(panes: PaneSpec[]): Record<string, string> {
  const envs = panes.flatMap((pane) => (pane.env ? [pane.env] : []));
  if (envs.length < 2) return {};
  return Object.fromEntries(Object.entries(envs[0]!).filter(([key, value]) => envs.every((env) => env[key] === value)));
}

function withoutCommon(
  env: Record<string, string> | undefined,
  common: Record<string, string>,
): Record<string, string> {
  return Object.fromEntries(Object.entries(env ?? {}).filter(([key]) => !(key in common)));
}

/** tmux on a private socket, never the user's own server, with no user config. */
export class Tmux implements PanesPort {
  constructor(
    private readonly runner: Runner,
    readonly socket: string,
    readonly session: string,
  ) {}

  /**
   * Command lines (`;`-separated argv) in one tmux process: read by the server from our stdin (`source-file -`), where
   * no 16 KB message limit applies, so 64 sandboxed panes cost one spawn, not 17. A newline in an argument (a
   * multi-line secret) has no quoting in tmux's parser: such a grid goes as separate argv calls.
   */
  private async runCommands(chunks: string[][]): Promise<string | undefined> {
    const lines = chunks.map((chunk) => (chunk.at(-1) === ";" ? chunk.slice(0, -1) : chunk));
    if (lines.flat().some((arg) => /[\r\n]/.test(arg))) {
      for (const line of lines) await this.tmux(line);
      return undefined;
    }
    const commands = lines.flatMap((line) => line.reduce<string[][]>((all, arg) => {
      if (arg === ";") all.push([]);
      else all.at(-1)!.push(arg);
      return all;
    }, [[]]));
    const script = commands.map((argv) => argv.map(quote).join(" ")).join("\n");
    return this.tmux(["start-server", ";", "source-file", "-"], false, `${script}\n`);
  }

  private async tmux(args: string[], allowFailure = false, input?: string): Promise<string> {
    // The server keeps its first client's environment for every pane: it must never hold a secret.
    const options = {
      timeoutMs: 10_000,
      env: filterAgentEnv(process.env),
      cleanEnv: true,
      ...(input === undefined ? {} : { input }),
    };
    const result = await this.runner.run(tmuxArgv(this.socket, args), options);
    if (result.spawnError)
      throw new OrgError(
        "tmux not found on PATH — install tmux ≥ 3.2 (apt-get install tmux), or run `org doctor`",
        "tmux",
      );
    if (result.exitCode !== 0 && !allowFailure) {
      throw new OrgError(`tmux ${args[0]} failed: ${result.stderr.trim() || `exit ${result.exitCode}`}`, "tmux");
    }
    return result.exitCode === 0 ? result.stdout : "";
  }

  async isRunning(): Promise<boolean> {
    // No socket file, no server: `org up` of a stopped org asks no tmux process.
    if (!(await pathExists(socketPath(this.socket)))) return false;
    const argv = tmuxArgv(this.socket, ["has-session", "-t", `=${this.session}`]);
    const result = await this.runner.run(argv, { timeoutMs: 10_000 });
    return result.exitCode === 0;
  }

  async createGrid(panes: PaneSpec[], size: { width: number; height: number }): Promise<PaneInfo[]> {
    // Variables every agent shares are set once for the server: each pane carries only its own.
    const common = commonEnv(panes);
    const window = `${this.session}:org`;
    const commands: string[][] = [
      ["start-server"],
      ...Object.entries(common).map(([key, value]) => ["set-environment", "-g", key, value]),
      ["set", "-g", "history-limit", "50000"],
      ["set", "-g", "remain-on-exit", "on"],
      ["set", "-g", "escape-time", "0"],
      ["set", "-g", "exit-empty", "off"],
      // A dead pane says what ended and where to look; the daemon's supervisor decides whether it restarts.
      ["set", "-g", "remain-on-exit-format", DEAD_PANE_FORMAT],
    ];
    const [first, ...rest] = panes;
    if (!first) throw new OrgError("a grid needs at least one pane", "tmux");
    const own = withoutCommon(first.env, common);
    const dims = ["-x", String(size.width), "-y", String(size.height)];
    commands.push(["new-session", "-d", "-s", this.session, "-n", "org", ...dims, "-c", first.cwd, ...envArgs(own),
      ...first.argv]);
    // new-session -e also sets the session's environment: the first pane's own variables must not reach the rest.
    for (const key of Object.keys(own)) commands.push(["set-environment", "-t", this.session, "-u", key]);
    commands.push(
      ...optionCommands(first), ...pipeCommands(first),
      // A smaller client attaching must not shrink the grid for good.
      ["set", "-w", "-t", window, "window-size", "manual"],
      // Before the splits: a border row added later would resize every pane.
      ["set", "-w", "-t", window, "pane-border-status", "top"],
      ["set", "-w", "-t", window, "pane-border-format", BORDER_FORMAT],
    );
    // The other panes are made empty (''), in order, each split re-tiled so none runs out of space; only then are
    // their programs started, by index, at their final size: a program started with its pane was resized at every
    // later split, which took half the grid's time (16 sandboxed agents: ~90 → ~50 ms).
    const tile = ["select-layout", "-t", window, "tiled"];
    for (const pane of rest) commands.push(["split-window", "-t", window, ""], ...optionCommands(pane), tile);
    rest.forEach((pane, index) => {
      const target = `${window}.${index + 1}`;
      const env = envArgs(withoutCommon(pane.env, common));
      commands.push(["respawn-pane", "-t", target, "-c", pane.cwd, ...env, ...pane.argv]);
      commands.push(...pipeCommands(pane, target));
    });
    // Listed by the same tmux process: what source-file's commands print comes back on its stdout.
    commands.push(["list-panes", "-s", "-t", `=${this.session}`, "-F", PANE_FORMAT]);
    const printed = await this.runCommands(chunkCommands(commands));
    const listed = await this.listByLabel(panes, printed);
    if (listed.some((pane) => pane === undefined))
      throw new OrgError(
        `tmux built the grid on socket ${this.socket} but lists only some of its panes — ` +
          "run `org down`, then `org up`",
        "tmux",
      );
    return listed as PaneInfo[];
  }

  async listPanes(): Promise<PaneInfo[]> {
    return parsePaneLines(await this.tmux(["list-panes", "-s", "-t", `=${this.session}`, "-F", PANE_FORMAT], true));
  }

  openPaneFeed(): PaneFeed {
    return this.control();
  }

  // One control-mode client per Tmux, shared by the feed, the pane host and the screen port: requests queue on it.
  private shared: TmuxControl | undefined;
  private control(): TmuxControl {
    return (this.shared ??= new TmuxControl(this.socket, this.session, parsePaneLine, PANE_FORMAT));
  }

  // Read ids back by label: with ~30 panes tmux answers a long chained command with no -P output at all.
  private async idsByLabel(panes: PaneSpec[]): Promise<string[]> {
    return (await this.listByLabel(panes)).map((pane) => pane?.id ?? "");
  }

  // Every pane of the session once, in the order of `panes`: the grid's caller needs ids, pids and state alike.
  private async listByLabel(panes: PaneSpec[], printed?: string): Promise<(PaneInfo | undefined)[]> {
    const listed = printed === undefined ? await this.listPanes() : parsePaneLines(printed);
    const byLabel = new Map(listed.map((pane) => [pane.options["@org_agent"] ?? "", pane]));
    return panes.map((pane) => byLabel.get(pane.options["@org_agent"] ?? ""));
  }

  async respawnPane(pane: string, launch?: PaneLaunch): Promise<void> {
    await this.tmux(respawnArgs(pane, launch));
  }

  /** Screens of the panes and keys into them, over a standing control-mode client of its own. */
  openScreenPort(): ScreenPort {
    return controlScreenPort(this.control());
  }

  /** The notifier's looks and typing, over a control-mode client of its own. */
  openNoticePort(): NoticePort {
    const control = new TmuxControl(this.socket, this.session, parsePaneLine, PANE_FORMAT, NOTICE_REPLY_TIMEOUT_MS);
    return openTmuxNoticePort(control, this.session);
  }

  openPaneHost(children?: ChildTracker): PaneHost {
    return new TmuxPaneHost(this.control(), this.session, PANE_FORMAT, parsePaneLine, this.socket, children);
  }

  async addPanes(panes: PaneSpec[]): Promise<string[]> {
    if (panes.length === 0) return [];
    const window = `${this.session}:org`;
    const listed = (await this.tmux(["list-panes", "-t", window, "-F", "#{pane_id} #{pane_active}"]))
      .split("\n")
      .filter(Boolean)
      .map((line) => line.split(" "));
    const last = listed.at(-1)?.[0];
    if (!last) throw new OrgError(`tmux window ${window} has no pane — restart the org: org down && org up`, "tmux");
    const active = listed.find(([, flag]) => flag === "1")?.[0] ?? last;
    // Splitting the last pane appends in order; without -d each new pane is current, so its options land on it.
    const args = ["select-pane", "-t", last, ";"];
    for (const pane of panes) {
      if (byteLength(args) > CHUNK_BYTES) {
        await this.tmux(args.slice(0, -1));
        args.splice(0, args.length);
      }
      args.push("split-window", "-t", window, "-c", pane.cwd, ...envArgs(pane.env), ...pane.argv, ";");
      for (const [key, value] of Object.entries(pane.options)) args.push("set-option", "-p", key, value, ";");
      args.push("select-layout", "-t", window, "tiled", ";");
    }
    args.push("select-pane", "-t", active);
    await this.tmux(args);
    return this.idsByLabel(panes);
  }

  async killPanes(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.tmux(ids.flatMap((id, index) => [...(index > 0 ? [";"] : []), "kill-pane", "-t", id]));
  }

  async setPaneOptions(pane: string, options: Record<string, string>): Promise<void> {
    const entries = Object.entries(options);
    if (entries.length === 0) return;
    await this.tmux(
      entries.flatMap(([key, value], index) => [
        ...(index > 0 ? [";"] : []), "set-option", "-p", "-t", pane, key, value,
      ]),
    );
  }

  async retile(): Promise<void> {
    await this.tmux(["select-layout", "-t", `${this.session}:org`, "tiled"]);
  }

  async reapExited(): Promise<void> {
    // tmux 3.3 under load can miss a SIGCHLD: a child of its own that ends makes it reap every ended program.
    await this.tmux(["run-shell", "-b", "true"], true);
  }

  async killServer(): Promise<void> {
    await this.tmux(["kill-server"], true);
    // tmux leaves its socket file behind; ours carry our prefix, so removing it touches nothing else.
    await rm(socketPath(this.socket), { force: true });
  }

  async selectPane(pane: string): Promise<void> {
    await this.tmux(["select-pane", "-t", pane], true);
  }

  attachArgv(pane?: string): string[] {
    const target = pane ?? this.session;
    // Printed for a person to type, as is: -f only matters to a server starting, and attach starts none.
    return ["tmux", "-L", this.socket, "attach-session", "-t", target];
  }
}

function socketPath(socket: string): string {
  return join(process.env.TMUX_TMPDIR || "/tmp", `tmux-${process.getuid?.() ?? 0}`, socket);
}

/** The pane's labels, set on the pane just made (tmux's current pane). */
function optionCommands(pane: PaneSpec): string[][] {
  return Object.entries(pane.options).map(([key, value]) => ["set-option", "-p", key, value]);
}

// Agent panes are logged by the daemon's supervisor (startLog): a logger process per pane would double the grid's time.
function pipeCommands(pane: PaneSpec, target?: string): string[][] {
  if (isAgentPane(pane)) return [];
  return [["pipe-pane", ...(target ? ["-t", target] : []), "-o", appendCommand(pane.logFile)]];
}

/** Commands packed into `;`-joined command lines under tmux's 16 KB message limit, for a grid sent as argv. */
function chunkCommands(commands: string[][]): string[][] {
  const chunks: string[][] = [[]];
  for (const command of commands) {
    const chunk = chunks.at(-1)!;
    if (chunk.length > 0 && byteLength(chunk) + byteLength(command) > CHUNK_BYTES) chunks.push([...command]);
    else chunk.push(...(chunk.length > 0 ? [";"] : []), ...command);
  }
  return chunks;
}

function isAgentPane(pane: PaneSpec): boolean {
  return pane.options["@org_agent"] !== undefined;
}

function parsePaneLines(out: string): PaneInfo[] {
  return out.split("\n").filter(Boolean).map(parsePaneLine);
}

function parsePaneLine(line: string): PaneInfo {
  const [id, pid, dead, deadStatus, deadSignal, deadTime, pipe, ...values] = line.split("\t");
  const options: Record<string, string> = {};
  OPTION_KEYS.forEach((key, index) => {
    if (values[index]) options[key] = values[index]!;
  });
  return {
    id: id!, pid: Number(pid), dead: dead === "1", deadStatus: deadStatus ? Number(deadStatus) : null,
    deadSignal: deadSignal ? signalName(deadSignal) : null,
    deadAt: deadTime && deadTime !== "0" ? Number(deadTime) * 1000 : null, piped: pipe === "1", options,
  };
}

// tmux prints the signal's number; status files and messages say SIGTERM, as Node does.
function signalName(number: string): string {
  const entry = Object.entries(constants.signals).find(([, value]) => value === Number(number));
  return entry ? entry[0] : `signal ${number}`;
}
