import type { ChildProcess } from "node:child_process";
import type { PaneCapture, PaneFeed, PaneInfo } from "../../domain/ports.js";
import { quote, tmuxArgv } from "./args.js";
import { usage } from "../usage/counters.js";
import { startChild } from "../process.js";

interface Request {
  expected: number;
  blocks: string[];
  error: string | undefined;
  resolve: (reply: ControlReply) => void;
  timer: NodeJS.Timeout;
}

/** The output of each command of a line, up to the first that failed; undefined when tmux is unreachable. */
export type ControlReply = { blocks: string[]; error?: string } | undefined;

const RETRY_MS = 1000;

/**
 * One long-lived tmux control-mode client: each request is one command line written to it and read back
 * as %begin/%end blocks, so a dashboard refresh or a supervisor poll spawns no process (a spawn per refresh
 * cost the dashboard more CPU than drawing; bench/watch.mjs). Requests run one at a time, in order. The
 * client is attached with no-output (no pane bytes streamed to us) and ignore-size (the grid keeps its size).
 */
export class TmuxControl implements PaneFeed {
  private child: ChildProcess | undefined;
  private pending: Request | undefined;
  private partial = "";
  private block: { id: string; lines: string[] } | undefined;
  private failedAt = -Infinity;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly socket: string,
    private readonly session: string,
    private readonly parsePane: (line: string) => PaneInfo,
    private readonly listFormat: string,
    // tmux answers in milliseconds: a reply this late means the client is wedged, and a fresh one replaces it.
    private readonly replyTimeoutMs = 10_000,
  ) {}

  async capture(ids: string[]): Promise<PaneCapture> {
    const commands = [
      ["list-panes", "-s", "-t", `=${this.session}`, "-F", this.listFormat],
      ["list-clients", "-t", `=${this.session}`, "-F", "#{client_control_mode}"],
      ...ids.map((id) => ["capture-pane", "-p", "-t", id]),
    ];
    const blocks = (await this.run(commands))?.blocks ?? [];
    // A pane gone since the caller listed it ends the chain at its %error: later panes wait for the next capture.
    const [listing, clients, ...screens] = blocks;
    return {
      panes: (listing ?? "").split("\n").filter(Boolean).map(this.parsePane),
      screens: new Map(screens.map((screen, index) => [ids[index]!, screen])),
      // Control-mode clients are programs (ours, dashboards); a terminal client is a person.
      ...(clients === undefined ? {} : { people: clients.split("\n").filter((mode) => mode === "0").length }),
    };
  }

  async countPeople(): Promise<number | undefined> {
    const reply = await this.run([["list-clients", "-t", `=${this.session}`, "-F", "#{client_control_mode}"]]);
    const clients = reply?.error === undefined ? reply?.blocks[0] : undefined;
    return clients === undefined ? undefined : clients.split("\n").filter((mode) => mode === "0").length;
  }

  close(): void {
    const child = this.child;
    if (!child) return;
    this.child = undefined;
    this.failedAt = Date.now();
    child.kill();
    this.finish("tmux went away");
  }

  /** Runs the commands as one tmux command line, after any request already in flight. */
  run(commands: string[][]): Promise<ControlReply> {
    const next = this.queue.then(() => this.send(commands));
    this.queue = next;
    return next;
  }

  private send(commands: string[][]): Promise<ControlReply> {
    usage.tmuxCommands += commands.length;
    const child = this.connect();
    if (!child?.stdin?.writable) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.finish("no reply from tmux");
        this.close();
      }, this.replyTimeoutMs);
      this.pending = { expected: commands.length, blocks: [], error: undefined, resolve, timer };
      // A newline would end the command line early: no argument keeps one.
      child.stdin!.write(
        `${commands.map((argv) => argv.map((arg) => quote(arg.replace(/\n/g, ""))).join(" ")).join(" ; ")}\n`,
      );
    });
  }

  private connect(): ChildProcess | undefined {
    if (this.child) return this.child;
    // While the org is down, try again at most once a second rather than on every refresh.
    if (Date.now() - this.failedAt < RETRY_MS) return undefined;
    const attach = ["-C", "attach-session", "-t", `=${this.session}`, "-f", "no-output,ignore-size"];
    const child = startChild(tmuxArgv(this.socket, attach, { noStart: true }), {
      stdio: ["pipe", "pipe", "ignore"],
      env: { ...process.env, TMUX: "" },
    });
    child.stdout!.setEncoding("utf8");
    [this.partial, this.block] = ["", undefined];
    // A replaced client's late bytes belong to no request of ours.
    child.stdout!.on("data", (chunk: string) => {
      if (this.child === child) this.receive(chunk);
    });
    child.stdin!.on("error", () => undefined);
    // A client closed or replaced already answered its request: only the current one's end fails the pending request.
    const gone = () => {
      if (this.child !== child) return;
      this.child = undefined;
      this.failedAt = Date.now();
      this.finish("tmux went away");
    };
    child.on("error", gone).on("exit", gone);
    this.child = child;
    return child;
  }

  private receive(chunk: string): void {
    const lines = (this.partial + chunk).split("\n");
    this.partial = lines.pop()!;
    for (const line of lines) this.receiveLine(line);
  }

  // Blocks are framed by "%begin TIME NUMBER FLAGS" and the same numbers after %end or %error; flags 1
  // marks the replies to our own commands. Any other % line outside a block is a notification.
  private receiveLine(line: string): void {
    if (!this.block) {
      const begin = /^%begin (\d+ \d+) (\d+)$/.exec(line);
      if (begin) this.block = { id: begin[1]!, lines: [] };
      return;
    }
    const end = /^%(end|error) (\d+ \d+) (\d+)$/.exec(line);
    if (!end || end[2] !== this.block.id) {
      this.block.lines.push(line);
      return;
    }
    const reply = end[3] === "1";
    const text = this.block.lines.map((entry) => `${entry}\n`).join("");
    this.block = undefined;
    if (!reply || !this.pending) return;
    if (end[1] === "error") return this.finish(text.trim() || "tmux command failed");
    this.pending.blocks.push(text);
    if (this.pending.blocks.length === this.pending.expected) this.finish();
  }

  private finish(error?: string): void {
    const request = this.pending;
    if (!request) return;
    this.pending = undefined;
    clearTimeout(request.timer);
    request.resolve(error === undefined ? { blocks: request.blocks } : { blocks: request.blocks, error });
  }
}
