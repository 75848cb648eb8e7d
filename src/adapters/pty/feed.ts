import type { PaneCapture, PaneFeed, PaneInfo } from "../../domain/ports.js";
import { PtyConnection } from "./connection.js";
import type { PtyPane } from "./host.js";
import type { Cursor } from "./protocol.js";

const KEYS_CHUNK = 4096;
const NOTHING: PaneCapture = { panes: [], screens: new Map() };

/**
 * The dashboard's view of a pty-mode org through one standing connection to its host: a capture is a list
 * plus a screen per pane, all written at once and answered in order. A down org captures no panes.
 */
export class PtyFeed implements PaneFeed {
  private readonly connection: PtyConnection;

  constructor(socketPath: string) {
    this.connection = new PtyConnection(socketPath);
  }

  async capture(ids: string[]): Promise<PaneCapture> {
    const client = await this.connection.get();
    if (!client) return NOTHING;
    const [listed, ...screens] = await Promise.all([
      client.request({ op: "list" }),
      ...ids.map((pane) => client.request({ op: "screen", pane })),
    ]);
    if (!listed?.ok || !listed.panes) return NOTHING;
    const captured = new Map<string, string>();
    screens.forEach((reply, index) => {
      if (reply.ok && reply.lines) captured.set(ids[index]!, reply.lines.join("\n"));
    });
    return { panes: listed.panes.map(toPaneInfo), screens: captured };
  }

  /** Every pane with its size, or undefined when the host is gone. */
  async panes(): Promise<PtyPane[] | undefined> {
    const client = await this.connection.get();
    const reply = client ? await client.request({ op: "list" }) : undefined;
    return reply?.ok ? reply.panes : undefined;
  }

  /** One pane's screen and cursor, or undefined when the host is gone or has no such pane. */
  async screen(pane: string): Promise<{ lines: string[]; cursor: Cursor } | undefined> {
    const client = await this.connection.get();
    const reply = client ? await client.request({ op: "screen", pane }) : undefined;
    return reply?.ok && reply.lines ? { lines: reply.lines, cursor: reply.cursor } : undefined;
  }

  /** Typed keys for the focused agent; false when the host is gone or refused them. */
  async sendKeys(agent: string, data: string): Promise<boolean> {
    const client = await this.connection.get();
    if (!client) return false;
    // A paste can pass the host's request limit: send it in pieces, in order.
    for (let at = 0; at < data.length; at += KEYS_CHUNK) {
      if (!(await client.request({ op: "keys", pane: agent, data: data.slice(at, at + KEYS_CHUNK) })).ok) return false;
    }
    return true;
  }

  async resize(agent: string, cols: number, rows: number): Promise<boolean> {
    const client = await this.connection.get();
    return Boolean(client && (await client.request({ op: "resize", pane: agent, cols, rows })).ok);
  }

  /** Kills what runs in the agent's pane and starts its last launch spec again. */
  async respawn(agent: string): Promise<void> {
    const client = await this.connection.get();
    if (!client) throw new Error(`the pty host at ${this.connection.path} is not running — is the org up?`);
    await client.respawn(agent);
  }

  close(): void {
    this.connection.close();
  }
}

/** A pty pane in the shape tmux panes are read in, so snapshots and the dashboard treat both alike. */
export function toPaneInfo(pane: PtyPane): PaneInfo {
  return {
    id: pane.id,
    pid: pane.pid,
    dead: pane.dead,
    deadStatus: pane.dead ? pane.exitCode : null,
    deadSignal: pane.exitSignal,
    deadAt: pane.exitedAt,
    options: pane.options,
  };
}
