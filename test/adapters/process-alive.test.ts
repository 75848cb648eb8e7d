import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, test } from "vitest";
import { isAlive, isSameProcess, readStartTicks } from "../../src/adapters/process.js";
import { pollUntil } from "../helpers/poll.js";

const isZombie = (pid: number): boolean => {
  try {
    return /^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
};

const parents: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const parent of parents.splice(0)) parent.kill("SIGKILL");
});

/** Starts `script` under a shell that prints its first line and then never reaps: what a container's init does. */
async function startUnreaped(script: string): Promise<number> {
  const parent = spawn("sh", ["-c", `${script}; exec sleep 10`], { stdio: ["ignore", "pipe", "ignore"] });
  parents.push(parent);
  return Number(await new Promise<string>((resolve) => parent.stdout!.once("data", (chunk) => resolve(String(chunk)))));
}

describe("isAlive", () => {
  test("a process that exited but was never reaped is not alive", async () => {
    const zombie = await startUnreaped("sleep 0.05 & echo $!");
    await pollUntil(() => isZombie(zombie), { what: "the zombie" });
    expect(isAlive(zombie)).toBe(false);
  });

  test("a group whose every process exited unreaped is not alive; one running member keeps it alive", async () => {
    // setsid makes the background shell lead a group of its own; it and its child exit, and nobody reaps them.
    const dead = await startUnreaped(`setsid sh -c 'sleep 0.05 & exec sleep 0.1' & echo $!`);
    await pollUntil(() => isZombie(dead), { what: "the group's leader as a zombie" });
    expect(isAlive(-dead)).toBe(false);

    const living = await startUnreaped(`setsid sh -c 'sleep 10 & exec sleep 0.1' & echo $!`);
    await pollUntil(() => isZombie(living), { what: "the second group's leader as a zombie" });
    expect(isAlive(-living)).toBe(true);
    process.kill(-living, "SIGKILL");
  });

  test("a running process is alive; a pid nobody holds is not", () => {
    expect(isAlive(process.pid)).toBe(true);
    expect(isAlive(2 ** 22 + 1)).toBe(false);
  });
});

describe("isSameProcess", () => {
  test("a pid is the process first seen while its start time holds: a reused pid or a zombie is not", async () => {
    const ticks = readStartTicks(process.pid);
    expect(ticks).not.toBeNull();
    expect(isSameProcess(process.pid, ticks)).toBe(true);
    // What a reused pid looks like: the same number, another start.
    expect(isSameProcess(process.pid, ticks! - 1)).toBe(false);
    // Long enough to be read alive first, even on a busy machine.
    const zombie = await startUnreaped("sleep 0.5 & echo $!");
    const zombieTicks = readStartTicks(zombie);
    await pollUntil(() => isZombie(zombie), { what: "the zombie" });
    expect(zombieTicks).not.toBeNull();
    expect(isSameProcess(zombie, zombieTicks)).toBe(false);
  });
});
