// CSI, OSC and single-character escapes as a pty emits them; pane logs are raw terminal bytes.
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

/** Terminal bytes → readable text: escapes removed, CRLF to LF, carriage-return overwrites collapsed. */
export function stripAnsi(text: string): string {
  return text
    .replace(ANSI, "")
    .replace(/\r\n/g, "\n")
    .split("\n")
    .map((line) => line.slice(line.lastIndexOf("\r") + 1))
    .join("\n");
}
