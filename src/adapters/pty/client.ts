import { connect, type Socket } from "node:net";
import { OrgError } from "../../domain/errors.js";
import type { PaneLaunch } from "../../domain/ports.js";
import type { PtyPane, PtyPaneSpec } from "./host.js";
import { LineReader, MAX_REPLY_BYTES } from "./lines.js";
import type { PtyReply, PtyRequest } from "./protocol.js";

type Outgoing = PtyRequest extends infer R ? (R extends PtyRequest ? Omit<R, "id"> : never) : never;

interface Pending {
  resolve: (reply: PtyReply) => void;
  timer: NodeJS.Timeout;
}

const REPLY_TIMEOUT_MS = 10_000;

/** One standing connection to an org's pty host (state/pty.sock); requests may overlap, replies are matched by id. */
export class PtyClient {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  private constructor(private readonly socket: Socket) {
    socket.setEncoding("utf8");
    const reader = new LineReader(MAX_REPLY_BYTES, (line) => this.receive(line), () => socket.destroy());
    socket.on("data", (chunk: string) => reader.push(chunk));
    socket.on("error", () => socket.destroy());
    socket.on("close", () => this.fail("the pty host closed the connection — is the org still up? (org status)"));
  }

  /** Connects, or throws an OrgError saying the org's pty host is not running. */
  static connect(path: string): Promise<PtyClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(path);
      socket.once("connect", () => resolve(new PtyClient(socket)));
      socket.once("error", (error: NodeJS.ErrnoException) =>
        reject(
          new OrgError(
            `no pty host at ${path} (${error.code ?? error.message}) — start the org with \`org up --no-tmux\``,
            "pty",
          ),
        ),
      );
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Sends one request; a timeout or a lost connection is an error reply, not a throw. */
  request(request: Outgoing): Promise<PtyReply> {
    if (this.closed) return Promise.resolve({ ok: false, error: "the connection to the pty host is closed" });
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(
        () =>
          this.settle(id, {
            id,
            ok: false,
            error: `the pty host did not answer ${request.op} within ${REPLY_TIMEOUT_MS / 1000} s`,
          }),
        REPLY_TIMEOUT_MS,
      );
      this.pending.set(id, { resolve, timer });
      this.socket.write(`${JSON.stringify({ ...request, id })}\n`);
    });
  }

  async list(): Promise<PtyPane[]> {
    return expectOk(await this.request({ op: "list" })).panes ?? [];
  }

  async screen(pane: string, attributes = false): Promise<string[]> {
    return expectOk(await this.request({ op: "screen", pane, attributes })).lines ?? [];
  }

  async keys(pane: string, data: string): Promise<void> {
    expectOk(await this.request({ op: "keys", pane, data }));
  }

  async resize(pane: string, cols: number, rows: number): Promise<void> {
    expectOk(await this.request({ op: "resize", pane, cols, rows }));
  }

  async respawn(pane: string, launch?: PaneLaunch): Promise<void> {
    expectOk(await this.request({ op: "respawn", pane, ...(launch ? { launch } : {}) }));
  }

  /** New panes, in order; returns their ids. */
  async open(panes: PtyPaneSpec[]): Promise<string[]> {
    return expectOk(await this.request({ op: "open", panes })).ids ?? [];
  }

  async kill(panes: string[]): Promise<void> {
    if (panes.length > 0) expectOk(await this.request({ op: "kill", panes }));
  }

  async options(pane: string, options: Record<string, string>): Promise<void> {
    expectOk(await this.request({ op: "options", pane, options }));
  }

  /** Stops every pane and the host; resolves once the host has closed the connection. */
  async shutdown(): Promise<void> {
    const closed = new Promise<void>((resolve) =>
      this.socket.closed ? resolve() : this.socket.once("close", () => resolve()),
    );
    expectOk(await this.request({ op: "shutdown" }));
    await closed;
  }

  close(): void {
    this.socket.destroy();
    this.fail("closed");
  }

  private receive(line: string): void {
    let reply: PtyReply;
    try {
      reply = JSON.parse(line) as PtyReply;
    } catch {
      return;
    }
    if (typeof reply.id === "number") this.settle(reply.id, reply);
  }

  private settle(id: number, reply: PtyReply): void {
    const request = this.pending.get(id);
    if (!request) return;
    this.pending.delete(id);
    clearTimeout(request.timer);
    request.resolve(reply);
  }

  private fail(error: string): void {
    this.closed = true;
    for (const id of [...this.pending.keys()]) this.settle(id, { id, ok: false, error });
  }
}

function expectOk(reply: PtyReply): Exclude<PtyReply, { ok: false }> {
  if (!reply.ok) throw new OrgError(reply.error, "pty");
  return reply;
}
