// A brokered command run by a worker started ahead: the real shim, the real org, the same output as a cold start.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { Duplex } from "node:stream";
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
  let announced = 0;
  const children = {
    announce: (_kind: string, what: string) => ({
      env: { ORG_CHILD_TOKEN: what, ORG_TEST_NTH: String(announced++) },
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
  const shim = spawn(join(dir, "org"), args, {
    cwd: dir,
    env: { ...process.env, ORG_OUTBOX: outbox, ORG_AGENT: "a-1" },
  });
  let [stdout, stderr] = ["", ""];
  shim.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  shim.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const ended = new Promise<number | null>((resolve) => shim.on("close", resolve));
  const [entry] = await pollUntil(() =>
    takeOutboxRequests(outbox).then((taken) => (taken.length > 0 ? taken : undefined)),
  );
  const env = { ORG_ROOT: dir, ORG_AGENT: "a-1" };
  const { children } = trackChildren();
  const warm = pool ? { workers: pool, args } : undefined;
  const started = await runOutboxCommand(entry!, [process.execPath, ORG_BIN, ...args], {
    cwd: dir,
    env,
    children,
    agent: "a-1",
    ...(warm ? { warm } : {}),
  });
  const code = await ended;
  await closeOutboxRequest(entry!, { files: false });
  return { pid: started.pid, code, stdout: stdout.replaceAll(dir, "<dir>"), stderr: stderr.replaceAll(dir, "<dir>") };
}

const IDLE_WHAT = "org outbox-worker (idle, for the next brokered command)";

async function startPool() {
  const tracked = trackChildren();
  const pool = createWarmWorkers([process.execPath, ORG_BIN], tracked.children, { startAfterMs: 0 });
  pools.push(pool);
  pool.ensure();
  const idle = tracked.started[0]!.pid;
  return { pool, idle, tracked };
}

describe("a warm worker", () => {
  test("runs the brokered command in the process started ahead, " +
    "with the output and status a cold start gives", async () => {
    const { pool, tracked } = await startPool();
    for (const args of [["--version"], ["claims"]]) {
      const cold = await runBrokered(args);
      const warm = await runBrokered(args, pool);
      expect({ ...warm, pid: 0 }).toEqual({ ...cold, pid: 0 });
      expect(cold.stdout + cold.stderr).not.toBe("");
    }
    // Each request went to a worker started ahead, a different one; four wait again once both are replaced.
    const handed = (what: string) => tracked.started.find((started) => started.what === what)?.pid;
    const idleOnes = () => tracked.started.filter(({ what }) => what === IDLE_WHAT).map(({ pid }) => pid);
    expect(idleOnes()).toContain(handed("org --version for a-1"));
    expect(idleOnes()).toContain(handed("org claims for a-1"));
    expect(handed("org claims for a-1")).not.toBe(handed("org --version for a-1"));
    // One boots at a time: six nodes one after another on a loaded machine.
    const refilled = () => idleOnes().length === 6 && pool.listIdle().length === 4;
    await pollUntil(refilled, { what: "both replaced", timeoutMs: 40_000 });
  }, 60_000);

  test("a command that fails prints to stderr and exits as the cold one does", async () => {
    const { pool } = await startPool();
    const cold = await runBrokered(["send"]);
    const warm = await runBrokered(["send"], pool);
    expect(cold.code).not.toBe(0);
    expect(warm).toEqual({ ...cold, pid: warm.pid });
  }, 30_000);

  test("one that dies idle is replaced; those that keep dying " +
    "are given up, and the commands then start cold", async () => {
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
    // Every idle one killed in turn: after three deaths in a row none is started again; commands then start cold.
    const live = () => tracked.started.filter(({ pid }) => !tracked.ended.includes(pid)).map(({ pid }) => pid);
    for (let left = live(); left.length > 0; left = live()) for (const pid of left) await kill(pid);
    pool.ensure();
    expect(live()).toEqual([]);
    expect(pool.hand({ argv: [], env: {}, cwd: "/", base: "/nonexistent", local: false }, "org")).toBeUndefined();
  }, 30_000);
});

/**
 * A stand-in worker in `dir`: the n-th started writes worker-<n> and only the second says it is warm (the first
 * never does: the next starts a while later); handed a request, it writes request-<n> and exits once `dir`/exit
 * appears.
 */
const FAKE_WORKER = `import { createReadStream, existsSync, writeFileSync, writeSync } from "node:fs";
const [dir, n] = [process.argv[2], process.env.ORG_TEST_NTH];
writeFileSync(dir + "/worker-" + n, "");
if (n === "1") writeSync(3, "warm\\n");
let text = "";
const input = createReadStream("", { fd: 3, autoClose: false });
input.on("data", (chunk) => (text += chunk));
input.on("end", () => {
  writeFileSync(dir + "/request-" + n, text);
  setInterval(() => existsSync(dir + "/exit") && process.exit(0), 10);
});
`;

/** A stand-in worker of `source` in a folder of its own, removed after the file; its folder is its argument. */
function writeFakeWorker(source: string): { dir: string; argv: string[] } {
  const dir = makeTempDir("org-warm-fake-");
  dirs.push(dir);
  writeFileSync(join(dir, "worker.mjs"), source);
  return { dir, argv: [process.execPath, join(dir, "worker.mjs"), dir] };
}

describe("which worker is handed a request", () => {
  test("a warm one before an older one still loading; its replacement starts once its command is over", async () => {
    const { dir, argv } = writeFakeWorker(FAKE_WORKER);
    const tracked = trackChildren();
    // As a pool already in use: four wait.
    const pool = createWarmWorkers(argv, tracked.children, { idleBeforeUse: 4, startAfterMs: 0 });
    pools.push(pool);
    // One at a time: the next starts once this one is warm, or a while after its start.
    pool.ensure();
    pool.ensure();
    expect(tracked.started).toHaveLength(1);
    const warm = () => pool.listIdle().find((worker) => worker.warm);
    const second = await pollUntil(warm, { what: "the second warm", timeoutMs: 20_000 });
    expect(second.pid).toBe(tracked.started[1]?.pid);
    expect(pool.listIdle()[0]).toEqual({ pid: tracked.started[0]?.pid, warm: false });
    const before = tracked.started.length;
    const request = { argv: ["status"], env: { A: "1" }, cwd: "/", base: join(dir, "r1"), local: false };
    const handed = pool.hand(request, "org status for a-1");
    expect(handed?.pid).toBe(second.pid);
    // Nothing new beside the command while it runs: only its record.
    expect(tracked.started.map(({ what }) => what).slice(before)).toEqual(["org status for a-1"]);
    const written = join(dir, "request-1");
    const text = await pollUntil(() => (existsSync(written) ? readFileSync(written, "utf8") : undefined));
    const env = { A: "1", ORG_CHILD_TOKEN: "org status for a-1", ORG_TEST_NTH: String(before) };
    expect(JSON.parse(text)).toEqual({ ...request, env });
    writeFileSync(join(dir, "exit"), "");
    await pollUntil(() => tracked.started.length === before + 2, { what: "its replacement", timeoutMs: 20_000 });
    expect(tracked.started.at(-1)?.what).toBe(IDLE_WHAT);
    expect(pool.listIdle()).toHaveLength(3);
  }, 30_000);
});

/** A stand-in worker that says it is warm at once and exits once handed its request. */
const WARM_AT_ONCE = `import { createReadStream, writeSync } from "node:fs";
writeSync(3, "warm\\n");
createReadStream("", { fd: 3, autoClose: false }).on("data", () => undefined).on("end", () => process.exit(0));
`;

describe("how many wait", () => {
  test("two until a command is handed (an org whose agents run no `org` pays for two nodes), then four", async () => {
    const { dir, argv } = writeFakeWorker(WARM_AT_ONCE);
    const tracked = trackChildren();
    const pool = createWarmWorkers(argv, tracked.children, { startAfterMs: 0 });
    pools.push(pool);
    pool.ensure();
    // The second's "warm" is when a pool in use would start the third.
    const twoWarm = () => pool.listIdle().length === 2 && pool.listIdle().every(({ warm }) => warm);
    await pollUntil(twoWarm, { what: "two warm", timeoutMs: 20_000 });
    pool.ensure();
    expect(tracked.started).toHaveLength(2);
    pool.hand({ argv: ["status"], env: {}, cwd: "/", base: join(dir, "r1"), local: false }, "org status for a-1");
    const fourWarm = () => pool.listIdle().length === 4 && pool.listIdle().every(({ warm }) => warm);
    await pollUntil(fourWarm, { what: "four warm", timeoutMs: 20_000 });
    expect(tracked.started.filter(({ what }) => what === IDLE_WHAT)).toHaveLength(5);
    expect(tracked.started).toHaveLength(6);
  }, 30_000);

  test("none in the org's first seconds, while its agents' CLIs start; then two, or at once once a command is " +
    "handed", async () => {
    const { dir, argv } = writeFakeWorker(WARM_AT_ONCE);
    const later = trackChildren();
    const start = Date.now();
    const waiting = createWarmWorkers(argv, later.children, { startAfterMs: 600 });
    pools.push(waiting);
    waiting.ensure();
    waiting.ensure();
    expect(later.started).toHaveLength(0);
    await pollUntil(() => later.started.length === 1, { what: "the first after the wait", timeoutMs: 20_000 });
    expect(Date.now() - start).toBeGreaterThanOrEqual(600);
    const used = trackChildren();
    const handed = createWarmWorkers(argv, used.children, { startAfterMs: 60_000 });
    pools.push(handed);
    const request = { argv: ["status"], env: {}, cwd: "/", base: join(dir, "r1"), local: false };
    // None idle: the command starts cold, and the broker's next look starts the workers.
    expect(handed.hand(request, "org status for a-1")).toBeUndefined();
    handed.ensure();
    expect(used.started.map(({ what }) => what)).toEqual([IDLE_WHAT]);
  }, 30_000);
});

describe("the hand-over", () => {
  test("a real worker says it is warm on fd 3 once loaded, and exits when fd 3 ends with no request", async () => {
    const worker = spawn(process.execPath, [ORG_BIN, "outbox-worker"], { stdio: ["ignore", "ignore", "pipe", "pipe"] });
    const channel = worker.stdio[3] as Duplex;
    let said = "";
    channel.on("data", (chunk: Buffer) => (said += chunk.toString()));
    const exited = new Promise((resolve) => worker.on("exit", resolve));
    await pollUntil(() => said === "warm\n", { what: "warm on fd 3", timeoutMs: 20_000 });
    channel.end();
    expect(await exited).toBe(0);
  }, 30_000);

  test("nothing on fd 3 is no request; anything but the daemon's request is an error", () => {
    expect(parseRequest("")).toBeUndefined();
    const request = { argv: ["status"], env: { A: "1" }, cwd: "/w", base: "/o/1", local: true };
    expect(parseRequest(`${JSON.stringify(request)}\n`)).toEqual(request);
    expect(() => parseRequest(JSON.stringify({ ...request, env: { A: 1 } }))).toThrow(
      "the daemon's request to a warm worker is not as it writes one",
    );
    expect(() => parseRequest(JSON.stringify({ ...request, argv: "status" }))).toThrow(
      "the daemon's request to a warm worker is not as it writes one",
    );
  });
});
