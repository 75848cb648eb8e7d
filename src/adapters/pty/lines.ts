// Line framing of the pty host's socket, shared by host and clients; no zod here, so clients load fast.

/**
 * Longest request line the host reads (an open of 32 panes with their environments
 * fits); a longer one is answered with an error and the connection closed.
 */
export const MAX_REQUEST_BYTES = 1024 * 1024;
/** Longest reply line a client reads: a screen of 500×300 cells with colour escapes fits. */
export const MAX_REPLY_BYTES = 4 * 1024 * 1024;

/** Splits a stream into lines no longer than `max` bytes; `onTooLong` is told once a line passes it. */
export class LineReader {
  private partial = "";

  constructor(
    private readonly max: number,
    private readonly onLine: (line: string) => void,
    private readonly onTooLong: () => void,
  ) {}

  push(chunk: string): void {
    const lines = (this.partial + chunk).split("\n");
    this.partial = lines.pop()!;
    for (const line of lines) {
      if (Buffer.byteLength(line) > this.max) return this.onTooLong();
      if (line.trim() !== "") this.onLine(line);
    }
    if (Buffer.byteLength(this.partial) > this.max) {
      this.partial = "";
      this.onTooLong();
    }
  }
}
