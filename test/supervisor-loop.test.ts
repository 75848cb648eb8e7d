import { readFileSync } from "node:fs";
import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { execa } from "execa";
import { afterEach, describe, expect, test } from "vitest";
import { writeJsonAtomic } from "../src/adapters/files.js";
import { isAlive } from "../src/adapters/process.js";
import { agentPaths } from "../src/org/paths.js";
import type { AgentStatus, LaunchSpec } from "../src/org/state.js";

const root = resolve(import.meta.dirname, "..");
const bin = join(root, "test/fixtures/bin");
const entry = pathToFileURL(join(root, "src/cli/commands/supervise.ts")).href;
const cleanups: (() => Promise<void>)[] = [];

afterEach(() => Promise.all(cleanups.splice(0).map((cleanup) => cleanup())));

// Runs `org supervise` as the pane would, minus tmux: a child node process with inherited stdio piped to us.
async function startSupervisor(launch: Partial<LaunchSpec>) {
  const state = await mkdtemp(join(tmpdir(), "org-supervisor-"));
  const paths = agentPaths(state, "alice");
  const spec: LaunchSpec = {
    agent: "alice", role: "researcher", argv: ["forever"], cwd: state, env: { PATH: `${bin}:${process.env.PATH}` },
    restart: "on-failure", backoffMs: 50, maxBackoffMs: 100, maxRestarts: 3, healthyAfterMs: 10_000,
    ...launch,
  };
  await writeJsonAtomic(paths.launch, spec);
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => key !== "TMUX" && key !== "TMUX_PANE"));
  const script = `const { runSupervise } = await import(${JSON.stringify(entry)});
process.exitCode = await runSupervise({ state: ${JSON.stringify(state)}, agent: "alice" });`;
  const sub = execa(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: root, env, extendEnv: false, reject: false, all: true });
  let output = "";
  sub.all?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const readStatus = () => readFile(paths.status, "utf8").then((text) => JSON.parse(text) as AgentStatus, () => undefined);
  // Only matters when a test failed midway: leave neither supervisor nor program behind.
  cleanups.push(async () => {
    const pid = (await readStatus())?.pid;
    if (pid && isAlive(pid)) process.kill(pid, "SIGKILL");
    sub.kill("SIGKILL");
    await sub;
    await rm(state, { recursive: true, force: true });
  });
  const events = async () => (await readFile(paths.events, "utf8")).trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
  return { sub, output: () => output, status: readStatus, events, cwd: await realpath(state) };
}
type Supervisor = Awaited<ReturnType<typeof startSupervisor>>;

async function waitFor<T>(probe: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs}ms waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 20));
  }
}

const waitForStatus = (supervisor: Supervisor, what: string, accept: (status: AgentStatus) => boolean) =>
  waitFor(async () => {
    const status = await supervisor.status();
    return status && accept(status) ? status : undefined;
  }, what);
const inState = (supervisor: Supervisor, state: AgentStatus["state"]) => waitForStatus(supervisor, `state ${state}`, (status) => status.state === state);

// Field 5 of /proc/<pid>/stat, after the parenthesised command name.
function processGroupOf(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]!;
}

describe("runSupervisor with real processes", { tags: ["slow"] }, () => {
  test("passes env and cwd to the program in our process group; SIGTERM stops both", async () => {
    const env = { ORG_AGENT: "alice", ORG_ROLE: "researcher", ORG_STATE: "/s", ORG_WORKTREE: "/wt/alice", ORG_INBOX: "/s/inbox.md", ORG_NAME: "demo",
      CUDA_VISIBLE_DEVICES: "3", PATH: `${bin}:${process.env.PATH}` };
    const supervisor = await startSupervisor({ argv: ["print-env-sleep"], env });
    await waitFor(() => supervisor.output().includes("cwd="), "print-env-sleep output");
    for (const [key, value] of Object.entries(env)) if (key !== "PATH") expect(supervisor.output()).toContain(`${key}=${value}\n`);
    expect(supervisor.output()).toContain(`cwd=${supervisor.cwd}\n`);
    const running = await inState(supervisor, "running");
    expect(running).toMatchObject({ agent: "alice", supervisorPid: supervisor.sub.pid, restarts: 0 });
    const pid = running.pid!;
    expect(isAlive(pid)).toBe(true);
    if (process.platform === "linux") expect(processGroupOf(pid)).toBe(processGroupOf(supervisor.sub.pid!));
    supervisor.sub.kill("SIGTERM");
    expect((await supervisor.sub).exitCode).toBe(0);
    expect(isAlive(pid)).toBe(false);
    expect(await supervisor.status()).toMatchObject({ state: "stopped", pid: null, reason: "stopped by SIGTERM", lastExit: { signal: "SIGTERM" } });
    expect((await supervisor.events()).map((event) => [event.type, event.pid])).toEqual([["start", pid], ["exit", pid]]);
    expect(supervisor.output()).toContain("[org] alice stopped by SIGTERM");
  });

  test("restarts a crashing program with backoff, gives up, and stays up until SIGTERM", async () => {
    const supervisor = await startSupervisor({ argv: ["exit-now"], env: { PATH: `${bin}:${process.env.PATH}`, EXIT_CODE: "3" } });
    const failed = await inState(supervisor, "failed");
    expect(failed).toMatchObject({ restarts: 3, consecutiveFailures: 3, pid: null, lastExit: { code: 3, signal: null } });
    expect(failed.reason).toMatch(/^exited with code 3 after \S+; gave up after 3 restarts without a run lasting 10s$/);
    const events = await supervisor.events();
    expect(events.map((event) => `${event.type}:${event.code}`)).toEqual(["start:null", "exit:3", "start:null", "exit:3", "start:null", "exit:3", "start:null", "exit:3"]);
    expect(events[1]!.reason).toMatch(/; restart 1\/3 in 50ms$/);
    expect(events[3]!.reason).toMatch(/; restart 2\/3 in 0.1s$/);
    await waitFor(() => supervisor.output().includes("see `org logs alice`"), "the failure line");
    expect(supervisor.output()).toMatch(/\[org\] alice failed: exited with code 3 after \S+; gave up after 3 restarts/);
    expect(isAlive(supervisor.sub.pid!)).toBe(true);
    supervisor.sub.kill("SIGTERM");
    expect((await supervisor.sub).exitCode).toBe(0);
    expect(await supervisor.status()).toMatchObject({ state: "stopped", lastExit: { code: 3 } });
  });

  test("a missing program is recorded as exit 127 with a clear reason", async () => {
    const supervisor = await startSupervisor({ argv: ["no-such-program-for-org"], restart: "never" });
    const failed = await inState(supervisor, "failed");
    expect(failed).toMatchObject({ lastExit: { code: 127 }, reason: 'program "no-such-program-for-org" not found on PATH; restart policy is never' });
    supervisor.sub.kill("SIGHUP");
    expect((await supervisor.sub).exitCode).toBe(0);
    expect(await supervisor.status()).toMatchObject({ state: "stopped", reason: "stopped by SIGHUP" });
  });

  test("SIGTERM during a backoff ends the wait at once", async () => {
    const supervisor = await startSupervisor({ argv: ["exit-now"], backoffMs: 60_000, maxBackoffMs: 60_000 });
    const restarting = await inState(supervisor, "restarting");
    expect(restarting.reason).toMatch(/; restart 1\/3 in 1m$/);
    const sent = Date.now();
    supervisor.sub.kill("SIGTERM");
    expect((await supervisor.sub).exitCode).toBe(0);
    expect(Date.now() - sent).toBeLessThan(5000);
    expect(await supervisor.status()).toMatchObject({ state: "stopped", reason: "stopped by SIGTERM" });
  });

  test("the supervisor ignores SIGINT; the program gets it and is restarted by policy", async () => {
    const supervisor = await startSupervisor({ argv: ["forever"] });
    const first = (await inState(supervisor, "running")).pid!;
    supervisor.sub.kill("SIGINT");
    process.kill(first, "SIGINT");
    const second = await waitForStatus(supervisor, "a restarted program", (status) => status.state === "running" && status.pid !== first);
    expect(second).toMatchObject({ restarts: 1, lastExit: { code: null, signal: "SIGINT" } });
    expect(isAlive(supervisor.sub.pid!)).toBe(true);
    supervisor.sub.kill("SIGTERM");
    expect((await supervisor.sub).exitCode).toBe(0);
    expect(isAlive(second.pid!)).toBe(false);
  });

  test("a program that ignores SIGTERM is killed after the 3 s grace", async () => {
    const supervisor = await startSupervisor({ argv: ["sh", "-c", "trap '' TERM; exec sleep 3600"] });
    const pid = (await inState(supervisor, "running")).pid!;
    const sent = Date.now();
    supervisor.sub.kill("SIGTERM");
    expect((await supervisor.sub).exitCode).toBe(0);
    expect(Date.now() - sent).toBeGreaterThanOrEqual(3000);
    expect(isAlive(pid)).toBe(false);
    expect(await supervisor.status()).toMatchObject({ state: "stopped", lastExit: { signal: "SIGKILL" } });
  });
});
