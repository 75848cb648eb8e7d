import type { NoticePort, PaneText } from "../../domain/ports.js";
import { PtyConnection } from "./connection.js";

/**
 * The notifier's panes on an `org pty-host`, looked at and typed into as tmux's are (tmux/notice-client.ts), over one
 * standing connection to the host's socket: a dead socket is a failed look or keystroke, never a throw.
 */
export function openPtyNoticePort(path: string): NoticePort {
  const connection = new PtyConnection(path);
  return {
    async listAgentPanes() {
      const client = await connection.get();
      const reply = client ? await client.request({ op: "list" }) : undefined;
      if (!reply?.ok || !reply.panes) return undefined;
      return new Map(reply.panes.filter((pane) => pane.agent !== "").map((pane) => [pane.agent, pane.id]));
    },
    async look(panes) {
      const client = await connection.get();
      if (!client) return undefined;
      // One list for dead and label, one screen per pane: written at once, answered in order.
      const [listed, ...screens] = await Promise.all([
        client.request({ op: "list" }),
        ...panes.map((pane) => client.request({ op: "screen", pane })),
      ]);
      if (!listed?.ok || !listed.panes) return undefined;
      const known = new Map(listed.panes.map((pane) => [pane.id, pane]));
      const looks = new Map<string, PaneText>();
      for (const [index, id] of panes.entries()) {
        const pane = known.get(id);
        const screen = screens[index];
        if (!pane || !screen?.ok || !screen.lines) return undefined;
        looks.set(id, {
          text: `${screen.history},${screen.cursor.x},${screen.cursor.y}\n${screen.lines.join("\n")}`,
          dead: pane.dead,
          agent: pane.agent,
        });
      }
      return looks;
    },
    async paste(pane, line) {
      const client = await connection.get();
      return client ? (await client.request({ op: "keys", pane, data: line, paste: true })).ok : false;
    },
    async pressEnter(pane) {
      const client = await connection.get();
      return client ? (await client.request({ op: "keys", pane, data: "\r" })).ok : false;
    },
    close() {
      connection.close();
    },
  };
}
