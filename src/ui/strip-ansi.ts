import { cleanText, dropEscapes } from "../domain/safe-text.js";

/**
 * Terminal bytes → readable text: escapes removed, CRLF to LF, carriage-return overwrites collapsed, then no control
 * character left. All of it goes, colour too: a pane log replays a TUI's cursor moves, clears, titles and clipboard
 * writes, and keeping only colour would take a parser whose every mistake lets an agent's escape through to a person.
 */
export function stripAnsi(text: string): string {
  const lines = dropEscapes(text).replace(/\r\n/g, "\n").split("\n");
  return cleanText(lines.map((line) => line.slice(line.lastIndexOf("\r") + 1)).join("\n"));
}
