import type { Io } from "./io.js";

/** Where a progress line goes: stderr, drawn only on a terminal, so pipes and logs get the command's lines alone. */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

export interface Progress {
  /** What the command does now, e.g. `stopping 8 agents`. */
  step(text: string): void;
  /** Erases the line; the command's own output follows. */
  done(): void;
  /** `io` whose lines first erase the progress line, then draw it again below them. */
  io: Io;
}

const DELAY_MS = 1000;
const TICK_MS = 500;
const ERASE = "\r\x1b[2K";

/**
 * A one-line progress report for a command that takes more than a second (`org up`, `org down`): after `delayMs`,
 * `org down: stopping 8 agents… 3s`, redrawn in place on each step and tick; nothing at all when not on a terminal.
 */
export function startProgress(
  command: string,
  io: Io,
  stream: ProgressStream = process.stderr,
  delayMs = DELAY_MS,
): Progress {
  const started = Date.now();
  let current = "starting";
  let shown = false;
  let ended = false;
  const tty = stream.isTTY === true;
  const draw = () => {
    const line = `${command}: ${current}… ${Math.floor((Date.now() - started) / 1000)}s`;
    stream.write(`${ERASE}${line.slice(0, Math.max(10, (stream.columns || 80) - 1))}`);
    shown = true;
  };
  const erase = () => {
    if (shown) stream.write(ERASE);
    shown = false;
  };
  let ticker: NodeJS.Timeout | undefined;
  const timer = tty ? setTimeout(() => {
    draw();
    ticker = setInterval(draw, TICK_MS);
    ticker.unref();
  }, delayMs) : undefined;
  timer?.unref();
  const around = (write: (text: string) => void) => (text: string) => {
    const redraw = shown;
    erase();
    write(text);
    if (redraw && !ended) draw();
  };
  return {
    step: (text) => {
      current = text;
      if (shown) draw();
    },
    done: () => {
      ended = true;
      clearTimeout(timer);
      clearInterval(ticker);
      erase();
    },
    io: { out: around(io.out), err: around(io.err) },
  };
}
