import type { NoticePort, PaneText } from "../../domain/ports.js";
import type { TmuxControl } from "./control.js";

const MARK = "\x1forg-pane";
// tmux answers in milliseconds; a reply this late means the client is wedged: start a fresh one.
export const NOTICE_REPLY_TIMEOUT_MS = 5000;

/**
 * The notifier's tmux operations on the org's private socket, over its own long-lived control-mode client instead of
 * a tmux process per command: looking at 32 panes twice a second, and typing within milliseconds of a message, would
 * otherwise fork all day. A look's text carries the scrollback length and cursor: a repeated line scrolls an
 * unchanged screen.
 */
export function openTmuxNoticePort(control: TmuxControl, session: string): NoticePort {
  // One command line runs up to its first failure: any failure fails the whole operation, as it did command by command.
  const succeeds = async (commands: string[][]) => {
    const reply = await control.run(commands);
    return reply !== undefined && reply.error === undefined;
  };
  return {
    async listAgentPanes() {
      const reply = await control.run([["list-panes", "-s", "-t", `=${session}`, "-F", "#{pane_id} #{@org_agent}"]]);
      if (!reply || reply.error !== undefined) return undefined;
      const panes = splitLines(reply.blocks[0]).map((line) => line.split(" ")).filter(([, agent]) => agent);
      return new Map(panes.map(([pane, agent]) => [agent!, pane!]));
    },
    async look(panes) {
      if (panes.length === 0) return new Map();
      // Every pane's head in one listing, then each screen: a look at 64 panes is 65 commands, not 128.
      const format = `${MARK} #{pane_id} #{pane_dead} #{history_size},#{cursor_x},#{cursor_y} #{@org_agent}`;
      const captures = panes.map((pane) => ["capture-pane", "-p", "-t", pane]);
      const reply = await control.run([["list-panes", "-s", "-t", `=${session}`, "-F", format], ...captures]);
      if (!reply || reply.error !== undefined) return undefined;
      const listed = splitLines(reply.blocks[0]).map((line) => line.split(" ")).filter(([mark]) => mark === MARK);
      const heads = new Map(listed.map((head) => [head[1]!, head]));
      const looks = new Map<string, PaneText>();
      for (const [index, pane] of panes.entries()) {
        const head = heads.get(pane);
        const capture = reply.blocks[index + 1];
        // A pane that is gone is not listed, or its capture fails: either way, no look.
        if (!head || capture === undefined) return undefined;
        const [, , dead, position, agent] = head;
        looks.set(pane, {
          text: `${position}\n${splitLines(capture).join("\n")}`,
          dead: dead === "1",
          agent: agent ?? "",
        });
      }
      return looks;
    },
    async paste(pane, line, buffer) {
      // -p pastes with bracketed-paste markers when the program
      // asked for them, so a TUI sees one paste, not keystrokes.
      return succeeds([
        ["set-buffer", "-b", buffer, "--", line],
        ["paste-buffer", "-d", "-p", "-b", buffer, "-t", pane],
      ]);
    },
    async pressEnter(pane) {
      return succeeds([["send-keys", "-t", pane, "Enter"]]);
    },
    close() {
      control.close();
    },
  };
}

// A reply block is its lines, each ended by a newline; a missing block has none.
function splitLines(block: string | undefined): string[] {
  return block === undefined || block === "" ? [] : block.replace(/\n$/, "").split("\n");
}
