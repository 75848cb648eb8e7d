import { describe, expect, test } from "vitest";
import type { ReadConfigResult } from "../../src/adapters/store/config-file.js";
import { shareConfigReads } from "../../src/daemon/config-cache.js";

/** A reader that counts its loads and answers each with its number as the one problem. */
function countingReader(fail = () => false) {
  const calls = { read: 0, reload: 0 };
  const answer = (n: number): Promise<ReadConfigResult> =>
    fail() ? Promise.reject(new Error("git gone")) : Promise.resolve({ problems: [`load ${n}`] });
  return {
    calls,
    reader: { read: () => answer(++calls.read), reload: () => answer(100 + ++calls.reload) },
  };
}

describe("the daemon's shared reads of org.yaml", () => {
  test("reads within the fresh window share one look; the next read after it looks again", async () => {
    let clock = 0;
    const { calls, reader } = countingReader();
    const shared = shareConfigReads(reader, 5000, () => clock);
    expect(await shared.read()).toEqual({ problems: ["load 1"] });
    clock = 4999;
    expect(await shared.read()).toEqual({ problems: ["load 1"] });
    expect(calls.read).toBe(1);
    clock = 5000;
    expect(await shared.read()).toEqual({ problems: ["load 2"] });
  });

  test("a reload (hot reload's watch saw a save) serves every read after it at once", async () => {
    let clock = 0;
    const { calls, reader } = countingReader();
    const shared = shareConfigReads(reader, 5000, () => clock);
    await shared.read();
    clock = 1000;
    expect(await shared.reload()).toEqual({ problems: ["load 101"] });
    clock = 5500;
    expect(await shared.read()).toEqual({ problems: ["load 101"] });
    expect(calls.read).toBe(1);
  });

  test("a load that threw is not served: the next read loads again", async () => {
    let failing = true;
    const { calls, reader } = countingReader(() => failing);
    const shared = shareConfigReads(reader, 5000, () => 0);
    await expect(shared.read()).rejects.toThrow("git gone");
    failing = false;
    expect(await shared.read()).toEqual({ problems: ["load 2"] });
    expect(calls.read).toBe(2);
  });
});
