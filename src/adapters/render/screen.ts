import { readScreen } from "../pty/screen-text.js";

// Loaded at the first render, not with tmux.ts: every `org` command imports that, few render a screen.
let terminalClass: Promise<typeof import("@xterm/headless").Terminal> | undefined;
function loadTerminal(): Promise<typeof import("@xterm/headless").Terminal> {
  // @xterm/headless is CommonJS: its classes hang off the default export.
  return (terminalClass ??= import("@xterm/headless").then((module) => module.default.Terminal));
}

/** The visible rows a terminal of `size` shows after `content` (text with escape sequences) is written to it. */
export async function renderScreen(content: string, size: { cols: number; rows: number }): Promise<string[]> {
  const Terminal = await loadTerminal();
  const term = new Terminal({ cols: size.cols, rows: size.rows, allowProposedApi: true, scrollback: 0 });
  try {
    // capture-pane ends rows with bare \n; a terminal needs \r\n to return to column 0.
    await new Promise<void>((resolve) => term.write(content.replace(/\r?\n/g, "\r\n"), resolve));
    return readScreen(term);
  } finally {
    term.dispose();
  }
}
