import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { startProgress } from "../../src/cli/progress.js";

function capture(isTTY: boolean) {
  const written: string[] = [];
  const lines: string[] = [];
  const stream = { isTTY, columns: 60, write: (text: string) => written.push(text) };
  const io = { out: (text: string) => lines.push(`out ${text}`), err: (text: string) => lines.push(`err ${text}`) };
  return { written, lines, stream, io };
}

describe("a progress line for up and down", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  test("silent for the first second, then the step and seconds redrawn in place, erased when done", () => {
    const { written, stream, io } = capture(true);
    const progress = startProgress("org down", io, stream);
    progress.step("stopping the keeper");
    vi.advanceTimersByTime(999);
    expect(written).toEqual([]);
    vi.advanceTimersByTime(1);
    progress.step("stopping 8 agents");
    vi.advanceTimersByTime(1500);
    progress.done();
    expect(written).toEqual([
      "\r\x1b[2Korg down: stopping the keeper… 1s", "\r\x1b[2Korg down: stopping 8 agents… 1s",
      "\r\x1b[2Korg down: stopping 8 agents… 1s", "\r\x1b[2Korg down: stopping 8 agents… 2s",
      "\r\x1b[2Korg down: stopping 8 agents… 2s", "\r\x1b[2K",
    ]);
    vi.advanceTimersByTime(5000);
    expect(written).toHaveLength(6);
  });

  test("a line the command prints erases the progress line first and draws it again below", () => {
    const { written, lines, stream, io } = capture(true);
    const progress = startProgress("org up", io, stream);
    vi.advanceTimersByTime(1000);
    progress.io.err("warning: x");
    expect(lines).toEqual(["err warning: x"]);
    expect(written).toEqual(["\r\x1b[2Korg up: starting… 1s", "\r\x1b[2K", "\r\x1b[2Korg up: starting… 1s"]);
    progress.done();
  });

  test("not on a terminal nothing is drawn: pipes and logs get the command's lines alone", () => {
    const { written, lines, stream, io } = capture(false);
    const progress = startProgress("org down", io, stream);
    vi.advanceTimersByTime(10_000);
    progress.io.out("stopped");
    progress.done();
    expect([written, lines]).toEqual([[], ["out stopped"]]);
  });
});
