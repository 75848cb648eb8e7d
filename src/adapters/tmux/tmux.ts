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
import { quote, respawnArgs, tmuxArgv } from "./args.js";
import { addPaneCommands, chunkCommands, gridCommands } from "./grid-commands.js";
import { filterAgentEnv } from "../../domain/lifecycle/secrets.js";

const OPTION_KEYS = ["@org_agent", "@org_role", "@org_gpu", "@org_status"] as const;
const PANE_FORMAT = [
  "#{pane_id}", "#{pane_pid}", "#{pane_dead}", "#{pane_dead_status}", "#{pane_dead_signal}", "#{pane_dead_time}",
  "#{pane_pipe}", ...OPTION_KEYS.map((key) => `#{${key}}`),
].join("\t");

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
    const commands = gridCommands(panes, this.session, size);
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
    // Splitting the last pane appends in order, from index listed.length; focus goes back where it was.
    await this.runCommands(chunkCommands(addPaneCommands(panes, window, { last, count: listed.length, active })));
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
