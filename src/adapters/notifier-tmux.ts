import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import type { NoticePort, PaneText } from "../org/ports.js";
import { usage } from "./usage-counters.js";

const MARK = "\x1forg-pane";
// After the tmux server went away, try to reattach at most this often.
const REATTACH_MS = 1000;
// tmux answers in milliseconds; a reply this late means the client is wedged: start a fresh one.
const REPLY_TIMEOUT_MS = 5000;

type Reply = { ok: boolean; lines: string[] };

/**
 * The notifier's tmux operations on the org's private socket, over one long-lived control-mode client (`tmux -C`)
 * instead of a tmux process per command: looking at 32 panes twice a second, and typing within milliseconds of a
 * message, would otherwise fork all day. A look's text carries the scrollback length and cursor: a repeated line scrolls an unchanged screen.
 */
export function openTmuxNoticePort(socket: string, session: string): NoticePort {
  let client: ChildProcessWithoutNullStreams | undefined;
  let failedAt = 0;
  let waiting: ((reply: Reply) => void)[] = [];

  const attach = (): ChildProcessWithoutNullStreams | undefined => {
    if (client) return client;
    if (Date.now() - failedAt < REATTACH_MS) return undefined;
    const child = spawn("tmux", ["-L", socket, "-f", "/dev/null", "-C", "attach-session", "-t", `=${session}`], { stdio: ["pipe", "pipe", "pipe"] });
    let buffer = "";
    let block: string[] | undefined;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      buffer += chunk;
      for (let newline = buffer.indexOf("\n"); newline >= 0; newline = buffer.indexOf("\n")) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        // Flags 1 mark the reply to a command this client sent; attach-session's own reply has 0.
        if (block === undefined) {
          if (/^%begin \d+ \d+ 1$/.test(line)) block = [];
        } else if (/^%(end|error) \d+ \d+ 1$/.test(line)) {
          const reply = { ok: line.startsWith("%end "), lines: block };
          block = undefined;
          waiting.shift()?.(reply);
        } else block.push(line);
      }
    });
    child.stderr.on("data", () => undefined);
    child.stdin.on("error", () => undefined);
    const gone = () => {
      if (client !== child) return;
      client = undefined;
      failedAt = Date.now();
      const orphans = waiting;
      waiting = [];
      orphans.forEach((resolve) => resolve({ ok: false, lines: [] }));
    };
    child.on("error", gone);
    child.on("exit", gone);
    child.stdin.write("refresh-client -f no-output\n");
    waiting.push(() => undefined);
    client = child;
    return child;
  };

  // Commands are pipelined: tmux answers them in order, one %begin/%end block each.
  const run = (commands: string[]): Promise<Reply[]> => {
    usage.tmuxCommands += commands.length;
    const child = attach();
    if (!child) return Promise.resolve(commands.map(() => ({ ok: false, lines: [] })));
    const replies = commands.map((command) => new Promise<Reply>((resolve) => {
      const timer = setTimeout(() => child.kill(), REPLY_TIMEOUT_MS);
      waiting.push((reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
      child.stdin.write(`${command}\n`);
    }));
    return Promise.all(replies);
  };

  return {
    async listAgentPanes() {
      const [reply] = await run([`list-panes -s -t ${quote(`=${session}`)} -F ${quote("#{pane_id} #{@org_agent}")}`]);
      if (!reply?.ok) return undefined;
      const panes = reply.lines.map((line) => line.split(" ")).filter(([, agent]) => agent);
      return new Map(panes.map(([pane, agent]) => [agent!, pane!]));
    },
    async look(panes) {
      const replies = await run(panes.flatMap((pane) => [`display-message -p -t ${quote(pane)} ${quote(`${MARK} #{pane_id} #{pane_dead} #{history_size},#{cursor_x},#{cursor_y} #{@org_agent}`)}`, `capture-pane -p -t ${quote(pane)}`]));
      const looks = new Map<string, PaneText>();
      for (let index = 0; index < panes.length; index++) {
        const [head, capture] = [replies[2 * index]!, replies[2 * index + 1]!];
        const [mark, id, dead, position, agent] = (head.lines[0] ?? "").split(" ");
        // A pane that is gone answers with an error, or as some other pane: either way, no look.
        if (!head.ok || !capture.ok || mark !== MARK || id !== panes[index]) return undefined;
        looks.set(id, { text: `${position}\n${capture.lines.join("\n")}`, dead: dead === "1", agent: agent ?? "" });
      }
      return looks;
    },
    async paste(pane, line, buffer) {
      // -p pastes with bracketed-paste markers when the program asked for them, so a TUI sees one paste, not keystrokes.
      const pasted = await run([`set-buffer -b ${quote(buffer)} -- ${quote(line)}`, `paste-buffer -d -p -b ${quote(buffer)} -t ${quote(pane)}`]);
      return pasted.every((reply) => reply.ok);
    },
    async pressEnter(pane) {
      const [enter] = await run([`send-keys -t ${quote(pane)} Enter`]);
      return enter?.ok === true;
    },
    close() {
      const child = client;
      client = undefined;
      child?.stdin.end();
      child?.kill();
    },
  };
}

// tmux's command parser: inside single quotes nothing is special; a quote itself cannot appear, and never does here.
function quote(value: string): string {
  return `'${value.replace(/['\n]/g, "")}'`;
}
