// A brokered command run by a worker started ahead: the real shim, the real org, the same output as a cold start.
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { renderOrgShim } from "../../../src/domain/sandbox/shim.js";
import { closeOutboxRequest, runOutboxCommand, takeOutboxRequests } from "../../../src/adapters/store/outbox.js";
import { createWarmWorkers, type WarmWorkers } from "../../../src/adapters/store/outbox-warm.js";
import { parseRequest } from "../../../src/cli/outbox-worker.js";
import { isAlive, killProcessGroup } from "../../../src/adapters/process.js";
import { makeTempDir } from "../../helpers/temp-repo.js";
import { pollUntil } from "../../helpers/poll.js";
import { ORG_BIN } from "../../helpers/org-cli.js";

const dirs: string[] = [];
const pools: WarmWorkers[] = [];
afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A tracker that remembers what was started, as the daemon's child records do. */
function trackChildren() {
  const started: { what: string; pid: number }[] = [];
  const ended: number[] = [];
  const children = {
    announce: (_kind: string, what: string) => ({
      env: { ORG_CHILD_TOKEN: what },
      started: (pid: number | undefined) => pid !== undefined && started.push({ what, pid }),
      ended: (pid: number | undefined) => pid !== undefined && ended.push(pid),
    }),
  };
  return { children, started, ended };
}

/** `org <args>` through the real shim and the outbox, run warm (handed to `pool`) or cold; what the shim printed. */
async function runBrokered(args: string[], pool?: WarmWorkers) {
  const dir = makeTempDir("org-warm-");
  dirs.push(dir);
  const outbox = join(dir, "outbox");
  mkdirSync(outbox);
  writeFileSync(join(dir, "org"), renderOrgShim(["/bin/false"]), { mode: 0o755 });
  const shim = spawn(join(dir, "org"), args, { cwd: dir, env: { ...process.env, ORG_OUTBOX: outbox, ORG_AGENT: "a-1" } });
  let [stdout, stderr] = ["", ""];
  shim.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  shim.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const ended = new Promise<number | null>((resolve) => shim.on("close", resolve));
  const [entry] = await pollUntil(() => takeOutboxRequests(outbox).then((taken) => (taken.length > 0 ? taken : undefined)));
  const env = { ORG_ROOT: dir, ORG_AGENT: "a-1" };
  const { children } = trackChildren();
  const warm = pool ? { workers: pool, args } : undefined;
  const started = await runOutboxCommand(entry!, [process.execPath, ORG_BIN, ...args], { cwd: dir, env, children, agent: "a-1", ...(warm ? { warm } : {}) });
  const code = await ended;
  await closeOutboxRequest(entry!, { files: false });
  return { pid: started.pid, code, stdout: stdout.replaceAll(dir, "<dir>"), stderr: stderr.replaceAll(dir, "<dir>") };
}

async function startPool() {
  const tracked = trackChildren();
  const pool = createWarmWorkers([process.execPath, ORG_BIN], tracked.children);
  pools.push(pool);
  pool.ensure();
  const idle = tracked.started[0]!.pid;
  return { pool, idle, tracked };
}

describe("a warm worker", () => {
  test("runs the brokered command in the process started ahead, with the output and status a cold start gives", async () => {
    const { pool, idle, tracked } = await startPool();
    for (const args of [["--version"], ["claims"]]) {
      const cold = await runBrokered(args);
      const warm = await runBrokered(args, pool);
      expect({ ...warm, pid: 0 }).toEqual({ ...cold, pid: 0 });
      expect(cold.stdout + cold.stderr).not.toBe("");
    }
    // Two wait; the first request went to the one started first, and each hand-over starts the next.
    const idleOnes = tracked.started.slice(0, 2).map(({ pid }) => pid);
    expect(tracked.started.slice(2, 4).map(({ pid, what }) => [pid, what])).toEqual([
      [idle, "org --version for a-1"], [expect.any(Number), "org outbox-worker (idle, for the next brokered command)"],
    ]);
    expect(tracked.started.find(({ what }) => what === "org claims for a-1")?.pid).toBe(idleOnes[1]);
  }, 30_000);

  test("a command that fails prints to stderr and exits as the cold one does", async () => {
    const { pool } = await startPool();
    const cold = await runBrokered(["send"]);
    const warm = await runBrokered(["send"], pool);
    expect(cold.code).not.toBe(0);
    expect(warm).toEqual({ ...cold, pid: warm.pid });
  }, 30_000);

  test("one that dies idle is replaced; those that keep dying are given up, and the commands then start cold", async () => {
    const { pool, idle, tracked } = await startPool();
    // Looked at again until its group is gone (a zombie a moment still counts), as the broker looks every second.
    const kill = async (pid: number) => {
      await killProcessGroup(pid, 1000);
      await pollUntil(() => (pool.ensure(), tracked.ended.includes(pid)), { what: "the dead worker let go" });
    };
    await kill(idle);
    const next = tracked.started.at(-1)!.pid;
    expect(next).not.toBe(idle);
    expect(isAlive(-next)).toBe(true);
    // Every idle one killed in turn: the second death starts one more, the third none; commands then start cold.
    for (const pid of tracked.started.slice(1).map((worker) => worker.pid)) await kill(pid);
    await kill(tracked.started.at(-1)!.pid);
    expect(tracked.started).toHaveLength(4);
    expect(tracked.started.every(({ pid }) => tracked.ended.includes(pid))).toBe(true);
    expect(pool.hand({ argv: [], env: {}, cwd: "/", base: "/nonexistent", local: false }, "org")).toBeUndefined();
  }, 30_000);
});

describe("the hand-over", () => {
  test("nothing on fd 3 is no request; anything but the daemon's request is an error", () => {
    expect(parseRequest("")).toBeUndefined();
    const request = { argv: ["status"], env: { A: "1" }, cwd: "/w", base: "/o/1", local: true };
    expect(parseRequest(`${JSON.stringify(request)}\n`)).toEqual(request);
    expect(() => parseRequest(JSON.stringify({ ...request, env: { A: 1 } }))).toThrow("the daemon's request to a warm worker is not as it writes one");
    expect(() => parseRequest(JSON.stringify({ ...request, argv: "status" }))).toThrow("the daemon's request to a warm worker is not as it writes one");
  });
});
