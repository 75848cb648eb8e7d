import { PtyConnection } from "./connection.js";
import type { ScreenPort } from "../../domain/ports.js";
import { typeThenEnter } from "./line-settle.js";

// tmux's key names, as the screen presets write them, in the bytes a terminal sends for them.
const KEYS: Record<string, string> = {
  Enter: "\r", Escape: "\x1b", Tab: "\t", Space: " ", BSpace: "\x7f",
  Up: "\x1b[A", Down: "\x1b[B", Right: "\x1b[C", Left: "\x1b[D", Home: "\x1b[H", End: "\x1b[F",
};

/** The bytes for a tmux key name: a named key, C-x for a control key, anything else typed as it is. */
export function keyBytes(key: string): string {
  const named = KEYS[key];
  if (named !== undefined) return named;
  const control = /^C-([a-z@[\\\]^_])$/i.exec(key);
  return control ? String.fromCharCode(control[1]!.toUpperCase().charCodeAt(0) & 0x1f) : key;
}

/** The daemon's screen watch over an `org pty-host`: screens come already emulated, keys go as bytes. */
export function ptyScreenPort(path: string): ScreenPort {
  const connection = new PtyConnection(path);
  const connect = () => connection.get();
  const type = async (pane: string, data: string) => {
    const connected = await connect();
    if (!connected) throw new Error(`cannot type into ${pane}: the pty host is not running`);
    await connected.keys(pane, data);
  };
  return {
    async capture(paneIds) {
      const screens = new Map<string, string>();
      const connected = await connect();
      if (!connected) return screens;
      const replies = await Promise.all(paneIds.map((pane) => connected.request({ op: "screen", pane })));
      replies.forEach((reply, index) => {
        if (reply.ok && reply.lines) screens.set(paneIds[index]!, reply.lines.join("\n"));
      });
      return screens;
    },
    // Typed, then submitted with a separate Enter, as with tmux: a CLI may take a pasted newline as text.
    async sendLine(paneId, text) {
      await typeThenEnter(() => type(paneId, text), () => type(paneId, "\r"));
    },
    async sendKeys(paneId, keys) {
      const data = keys.map(keyBytes).join("");
      if (data !== "") await type(paneId, data);
    },
    async paneAlive(paneId) {
      const panes = await (await connect())?.list().catch(() => undefined);
      return panes?.some((pane) => pane.id === paneId && !pane.dead) ?? false;
    },
    close() {
      connection.close();
    },
  };
}
