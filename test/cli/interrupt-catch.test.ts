import { afterEach, expect, test, vi } from "vitest";
import { catchInterrupts } from "../../src/cli/interrupt.js";

afterEach(() => vi.restoreAllMocks());

test("the first signal is noted, the second says up is still finishing, the third quits at once", () => {
  const lines: string[] = [];
  const exit = vi.spyOn(process, "exit").mockImplementation(() => undefined as never);
  const before = process.listenerCount("SIGTERM");
  const interrupts = catchInterrupts("org up", { out: () => undefined, err: (line) => lines.push(line) }, {});
  expect([interrupts.signal, process.listenerCount("SIGTERM")]).toEqual([undefined, before + 1]);
  process.emit("SIGTERM", "SIGTERM");
  expect([interrupts.signal, interrupts.exitCode(), lines]).toEqual(["SIGTERM", 143, []]);
  process.emit("SIGINT", "SIGINT");
  expect(lines).toEqual([
    "org up: still finishing after SIGTERM — interrupt once more to quit at once, leaving what runs",
  ]);
  expect(exit).not.toHaveBeenCalled();
  process.emit("SIGINT", "SIGINT");
  expect(exit).toHaveBeenCalledWith(143);
  interrupts.dispose();
  expect(process.listenerCount("SIGTERM")).toBe(before);
});
