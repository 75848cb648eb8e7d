import { renderScreen } from "../render/screen.js";
import type { ScreenPort } from "../../domain/ports.js";
import type { TmuxControl } from "./control.js";
import { typeThenEnter } from "../pty/line-settle.js";

/**
 * Screens and keys of panes on a private tmux socket, over a standing control-mode client: one command line captures
 * every pane (size and content), so the daemon's look at all screens spawns no process. Screens are rendered by
 * @xterm/headless; a line is typed literally and submitted with a separate named Enter, which every CLI takes.
 */
export function controlScreenPort(control: TmuxControl): ScreenPort {
  const run = (commands: string[][]) => control.run(commands);
  // An idle agent's screen does not change: emulating it again every look would be the daemon's main cost.
  const rendered = new Map<string, { raw: string; text: string }>();
  return {
    async capture(paneIds) {
      const screens = new Map<string, string>();
      if (paneIds.length === 0) return screens;
      const reply = await run(
        paneIds.flatMap((id) => [
          ["display-message", "-p", "-t", id, "#{pane_width} #{pane_height}"],
          ["capture-pane", "-p", "-e", "-t", id],
        ]),
      );
      // A pane gone since it was listed ends the line at its error: the panes before it are still good.
      const blocks = reply?.blocks ?? [];
      for (const [index, id] of paneIds.entries()) {
        const size = blocks[2 * index];
        const content = blocks[2 * index + 1];
        if (size === undefined || content === undefined) break;
        const raw = `${size}${content}`;
        const known = rendered.get(id);
        if (known?.raw === raw) {
          screens.set(id, known.text);
          continue;
        }
        const [cols, rows] = size.trim().split(" ").map(Number);
        const lines = await renderScreen(content.replace(/\n$/, ""), { cols: cols || 80, rows: rows || 24 });
        const text = lines.join("\n");
        rendered.set(id, { raw, text });
        screens.set(id, text);
      }
      return screens;
    },
    async sendLine(paneId, text) {
      await typeThenEnter(
        () => run([["send-keys", "-t", paneId, "-l", "--", text]]),
        () => run([["send-keys", "-t", paneId, "Enter"]]),
      );
    },
    async sendKeys(paneId, keys) {
      await run([["send-keys", "-t", paneId, ...keys]]);
    },
    async paneAlive(paneId) {
      const reply = await run([["display-message", "-p", "-t", paneId, "#{pane_dead}"]]);
      return reply?.blocks[0]?.trim() === "0";
    },
    close() {
      control.close();
    },
  };
}
