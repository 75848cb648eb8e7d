import xterm from "@xterm/headless";
import { readScreen } from "./pty-screen.js";

// @xterm/headless is CommonJS: a named import compiles but is undefined at run time.
const { Terminal } = xterm;

/** The visible rows a terminal of `size` shows after `content` (text with escape sequences) is written to it. */
export async function renderScreen(content: string, size: { cols: number; rows: number }): Promise<string[]> {
  const term = new Terminal({ cols: size.cols, rows: size.rows, allowProposedApi: true, scrollback: 0 });
  try {
    // capture-pane ends rows with bare \n; a terminal needs \r\n to return to column 0.
    await new Promise<void>((resolve) => term.write(content.replace(/\r?\n/g, "\r\n"), resolve));
    return readScreen(term);
  } finally {
    term.dispose();
  }
}
