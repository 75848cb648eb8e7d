import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { tryLock, withLock } from "../../../src/adapters/fs/lock.js";
import { pollUntil } from "../../helpers/poll.js";

const dir = () => mkdtempSync(join(tmpdir(), "org-lock-"));

describe("tryLock", () => {
  test("takes a free lock with its pid, refuses a live holder's, takes over a dead one's", async () => {
    const lock = join(dir(), "up.lock");
    expect(await tryLock(lock)).toBe(true);
    expect(readFileSync(lock, "utf8")).toBe(`${process.pid}\n`);
    expect(await tryLock(lock)).toBe(false);
    writeFileSync(lock, "999999999\n");
    expect(await tryLock(lock)).toBe(true);
    expect(readdirSync(join(lock, ".."))).toEqual(["up.lock"]);
  });

  test("a holder that exited but was not reaped (a zombie: no init reaps in a container) holds nothing", async () => {
    const lock = join(dir(), "up.lock");
    // The shell's background child exits; the program the shell became never waits for it.
    const parent = spawn("sh", ["-c", "sleep 0.05 & echo $!; exec sleep 10"], { stdio: ["ignore", "pipe", "ignore"] });
    try {
      const zombie = Number(
        await new Promise<string>((resolve) => parent.stdout.once("data", (chunk) => resolve(String(chunk)))),
      );
      await pollUntil(() => /^\d+ \(.*\) Z /.test(readFileSync(`/proc/${zombie}/stat`, "utf8")), {
        what: "the zombie",
      });
      writeFileSync(lock, `${zombie}\n`);
      expect(await tryLock(lock)).toBe(true);
      expect(readFileSync(lock, "utf8")).toBe(`${process.pid}\n`);
    } finally {
      parent.kill("SIGKILL");
    }
  });
});

describe("withLock", () => {
  test("two writers take turns", async () => {
    const lock = join(dir(), "notes.lock");
    const order: string[] = [];
    const write = (name: string) => withLock(lock, async () => {
      order.push(`${name} in`);
      await new Promise((resolve) => setTimeout(resolve, 30));
      order.push(`${name} out`);
    });
    await Promise.all([write("a"), write("b")]);
    // Whichever goes first, the other starts only after it ends.
    expect([order[0]!.split(" ")[0], order[2]!.split(" ")[0]].sort()).toEqual(["a", "b"]);
    expect(order.map((step) => step.split(" ")[1])).toEqual(["in", "out", "in", "out"]);
    expect(order[0]!.split(" ")[0]).toBe(order[1]!.split(" ")[0]);
  });

  test("an old lock, even an older org's folder, is taken over; a fresh one held past the wait fails", async () => {
    const state = dir();
    const lock = join(state, "contracts.lock");
    mkdirSync(lock);
    utimesSync(lock, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    expect(await withLock(lock, async () => "written")).toBe("written");
    writeFileSync(lock, `${process.pid}\n`);
    // Held past a wait of 0.2 s: the 5 s one is the same loop.
    await expect(withLock(lock, async () => "never", 200)).rejects.toThrow(`${lock} is held by another writer`);
  });
});
