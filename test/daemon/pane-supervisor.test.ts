import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { writeJsonAtomic } from "../../src/adapters/fs/files.js";
import { PaneSupervisor } from "../../src/daemon/pane-supervisor.js";
import { agentPaths, sandboxFile } from "../../src/domain/paths.js";
import { readAgentSandbox } from "../../src/adapters/store/agent-sandbox.js";
import type { AgentPane, PaneHost, PaneLaunch } from "../../src/domain/ports.js";
import type { AgentStatus, LaunchSpec } from "../../src/domain/state.js";
import { paneLaunch, stepAgent } from "../../src/domain/lifecycle/supervise-step.js";

const spec: LaunchSpec = {
  agent: "alice", role: "researcher", argv: ["/bin/true"], cwd: "/tmp", env: { PATH: "/usr/bin:/bin" },
  restart: "on-failure", backoffMs: 1000, maxBackoffMs: 8000, maxRestarts: 2, healthyAfterMs: 60_000,
};
const T0 = Date.parse("2026-11-29T12:00:00.000Z");
const GEMINI: NonNullable<LaunchSpec["runtime"]> = {
  name: "gem", preset: "gemini", sessionId: "s", home: "/h", resumeArgv: null, transcripts: null, promptFile: null,
  seed: [], watch: { nudge: "", nudgeAfterMs: 600_000, nudgesPerHour: 6, answerTrust: false },
};

/** A pane host in memory: tests kill and start "programs" by changing the panes it lists. */
class FakeHost implements PaneHost {
  panes: AgentPane[] = [
    { agent: "alice", id: "%1", pid: 100, dead: false, exitCode: null, exitSignal: null, exitedAt: null },
  ];
  respawns: { id: string; launch: PaneLaunch }[] = [];
  statuses: string[] = [];
  async listAgentPanes() {
    return this.panes.map((pane) => ({ ...pane }));
  }
  async respawn(id: string, launch: PaneLaunch) {
    this.respawns.push({ id, launch });
    this.panes = this.panes.map((pane) =>
      pane.id === id
        ? { ...pane, pid: pane.pid + 1, dead: false, exitCode: null, exitSignal: null, exitedAt: null }
        : pane,
    );
  }
  async setStatus(_id: string, status: string) {
    this.statuses.push(status);
  }
  close() {}
  die(exitCode: number | null, exitSignal: string | null, at: number) {
    this.panes = this.panes.map((pane) => ({ ...pane, dead: true, exitCode, exitSignal, exitedAt: at }));
  }
}

let state: string;
let host: FakeHost;
const status = async () => JSON.parse(await readFile(agentPaths(state, "alice").status, "utf8")) as AgentStatus;
const events = async () =>
  (await readFile(agentPaths(state, "alice").events, "utf8"))
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);

beforeEach(async () => {
  state = await mkdtemp(join(tmpdir(), "org-pane-supervisor-"));
  host = new FakeHost();
  await writeJsonAtomic(agentPaths(state, "alice").launch, spec);
});
afterEach(() => rm(state, { recursive: true, force: true }));

describe("PaneSupervisor", () => {
  test("adopts a live pane, restarts a failed program after its " +
    "backoff with the launch spec, and records every step", async () => {
    const supervisor = new PaneSupervisor(state, host);
    await supervisor.tick(T0);
    expect(await status()).toMatchObject({ state: "running", pid: 100, restarts: 0 });
    host.die(3, null, T0 + 2000);
    await supervisor.tick(T0 + 2100);
    expect(await status()).toMatchObject({
      state: "restarting",
      pid: null,
      restarts: 1,
      consecutiveFailures: 1,
      restartAt: "2026-11-29T12:00:03.100Z",
      lastExit: { code: 3, signal: null },
    });
    expect((await status()).reason).toBe("exited with code 3 after 2.1s; restart 1/2 in 1s");
    await supervisor.tick(T0 + 2500);
    expect(host.respawns).toEqual([]);
    await supervisor.tick(T0 + 3100);
    expect(host.respawns).toEqual([{ id: "%1", launch: paneLaunch(spec) }]);
    await supervisor.tick(T0 + 3200);
    expect(await status()).toMatchObject({ state: "running", pid: 101, restarts: 1 });
    expect((await events()).map((event) => event.type)).toEqual(["start", "exit", "start"]);
    expect(host.statuses).toEqual(["running", "restarting", "running"]);
    expect(await readFile(join(state, "log.md"), "utf8")).toContain("restart");
  });

  test("a tick says whether every agent is settled; settled, " +
    "the pause waits on the host's change signal, else it polls", async () => {
    const waits: number[] = [];
    const hooked = Object.assign(host, { waitForChange: async (ms: number) => void waits.push(ms) });
    const supervisor = new PaneSupervisor(state, hooked);
    // Adopting the pane records its start; the next look finds nothing to do.
    expect(await supervisor.tick(T0)).toBe(false);
    expect(await supervisor.tick(T0 + 100)).toBe(true);
    await supervisor.pause(true, 500, 5000);
    expect(waits).toEqual([5000]);
    host.die(3, null, T0 + 2000);
    // Dead with a restart pending: not settled until the respawned program is seen running.
    expect(await supervisor.tick(T0 + 2100)).toBe(false);
    expect(await supervisor.tick(T0 + 3100)).toBe(false);
    expect(host.respawns).toHaveLength(1);
    const polled = Date.now();
    await supervisor.pause(false, 20, 5000);
    expect(waits).toEqual([5000]);
    expect(Date.now() - polled).toBeGreaterThanOrEqual(15);
    // The new program's start is recorded, then the next look finds nothing left to do.
    expect(await supervisor.tick(T0 + 3200)).toBe(false);
    expect(await status()).toMatchObject({ state: "running", pid: 101 });
    expect(await supervisor.tick(T0 + 3300)).toBe(true);
  });

  test("gives up after max_restarts quick failures, and a start by a person gets a fresh budget", async () => {
    const supervisor = new PaneSupervisor(state, host);
    let now = T0;
    await supervisor.tick(now);
    for (let round = 0; round < 3; round++) {
      host.die(1, null, (now += 100));
      await supervisor.tick((now += 10));
      await supervisor.tick((now += 10_000));
      await supervisor.tick((now += 10));
    }
    expect(await status()).toMatchObject({ state: "failed", restarts: 2, consecutiveFailures: 2 });
    expect((await status()).reason).toMatch(/gave up after 2 restarts without a run lasting 1m$/);
    expect(host.respawns).toHaveLength(2);
    await host.respawn("%1", paneLaunch(spec));
    await supervisor.tick(now + 10);
    expect(await status()).toMatchObject({ state: "running", consecutiveFailures: 0 });
  });

  test("an exit seen late (the daemon was down) is timed by the pane, not by when it was seen", async () => {
    const supervisor = new PaneSupervisor(state, host);
    await supervisor.tick(T0);
    host.die(1, null, T0 + 4000);
    await supervisor.tick(T0 + 30_000);
    expect((await status()).reason).toBe("exited with code 1 after 4s; restart 1/2 in 1s");
    expect((await status()).restartAt).toBe("2026-11-29T12:00:05.000Z");
  });

  test("a clean exit under on-failure is done; a signal is named", async () => {
    const supervisor = new PaneSupervisor(state, host);
    await supervisor.tick(T0);
    host.die(0, null, T0 + 500);
    await supervisor.tick(T0 + 600);
    expect(await status()).toMatchObject({
      state: "stopped",
      reason: "exited with code 0 after 0.6s; not restarting (restart policy is on-failure)",
    });
    await supervisor.tick(T0 + 60_000);
    expect(host.respawns).toEqual([]);
    expect(
      stepAgent({
        status: { ...(await status()), state: "running", pid: 100 },
        pane: { ...host.panes[0]!, exitCode: null, exitSignal: "SIGKILL" },
        spec,
        now: T0 + 600,
      }),
    ).toMatchObject({
      kind: "exited",
      decision: { kind: "restart", reason: expect.stringMatching(/^killed by SIGKILL \(137\)/) },
    });
  });

  test("a blocked agent is never restarted: its exit is recorded once and it waits for a person", async () => {
    const supervisor = new PaneSupervisor(
      state,
      host,
      () => undefined,
      async () => "not logged in — run `claude` in its pane and /login",
    );
    await supervisor.tick(T0);
    host.die(1, null, T0 + 100);
    await supervisor.tick(T0 + 200);
    await supervisor.tick(T0 + 60_000);
    expect(await status()).toMatchObject({
      state: "blocked",
      pid: null,
      reason: "not logged in — run `claude` in its pane and /login",
    });
    expect(host.respawns).toEqual([]);
    expect((await events()).map((event) => event.type)).toEqual(["start", "exit"]);
  });

  test("a CLI that exits with its relaunch code is started again at once, whatever its screen showed", async () => {
    const relaunching = { ...spec, runtime: { ...GEMINI, relaunchCode: 199 } };
    await writeJsonAtomic(agentPaths(state, "alice").launch, relaunching);
    const signIn = "screen shows a sign-in menu — log in once for this agent";
    const supervisor = new PaneSupervisor(state, host, () => undefined, async () => signIn);
    await supervisor.tick(T0);
    host.die(199, null, T0 + 100);
    await supervisor.tick(T0 + 200);
    expect(await status()).toMatchObject({
      state: "restarting", reason: "exited with code 199 after 0.2s: it asks to be started again; restarting it",
    });
    await supervisor.tick(T0 + 300);
    expect(host.respawns).toHaveLength(1);
    // The live screen watch had blocked it before the exit: the relaunch still wins.
    await writeJsonAtomic(agentPaths(state, "alice").status, { ...(await status()), state: "blocked", reason: signIn });
    const blocked = { ...(await status()), pid: host.panes[0]!.pid };
    const pane = { ...host.panes[0]!, dead: true, exitCode: 199, exitSignal: null, exitedAt: T0 + 400 };
    const step = (code: number) =>
      stepAgent({ status: blocked, pane: { ...pane, exitCode: code }, spec: relaunching, now: T0 + 500 });
    expect(step(199)).toMatchObject({ kind: "exited", decision: { kind: "restart", delayMs: 0 } });
    // Any other code from a blocked screen still waits for a person.
    expect(step(1)).toMatchObject({ kind: "blocked", reason: signIn });
    expect(stepAgent({ status: blocked, pane, spec, now: T0 + 500 })).toMatchObject({ kind: "blocked" });
  });

  test("exit 127 from a program that is not there says so", async () => {
    await writeJsonAtomic(agentPaths(state, "alice").launch, { ...spec, argv: ["no-such-agent-cli"] });
    const supervisor = new PaneSupervisor(state, host);
    await supervisor.tick(T0);
    host.die(127, null, T0 + 10);
    await supervisor.tick(T0 + 20);
    expect((await status()).reason).toMatch(/^program "no-such-agent-cli" not found on PATH; restart 1\/2 in 1s$/);
  });

  test("exit 127 from a program that is there blocks it with what to check, and it is not restarted", async () => {
    const supervisor = new PaneSupervisor(state, host);
    await supervisor.tick(T0);
    host.die(127, null, T0 + 10);
    await supervisor.tick(T0 + 20);
    await supervisor.tick(T0 + 60_000);
    expect(await status()).toMatchObject({
      state: "blocked",
      restarts: 0,
      reason:
        "exit 127 from /bin/true itself: a command it runs is not installed (a broken install or wrapper) — " +
          "run `/bin/true --version` by hand to see what is missing, fix it, then restart alice",
    });
    expect(host.respawns).toEqual([]);
  });

  test("a missing launch.json is reported, and nothing is started", async () => {
    await rm(agentPaths(state, "alice").launch);
    const lines: string[] = [];
    const supervisor = new PaneSupervisor(state, host, (line) => lines.push(line));
    host.die(1, null, T0);
    await supervisor.tick(T0 + 10);
    expect(lines).toEqual([`alice: ${agentPaths(state, "alice").launch} not found — run \`org up\` to write it`]);
    expect(host.respawns).toEqual([]);
  });

  test("a damaged sandbox record fails the agent: never restarted unsandboxed", async () => {
    const supervisor = new PaneSupervisor(state, host);
    await supervisor.tick(T0);
    const file = sandboxFile(state, "alice");
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, '{"bwrap": "/usr/bin/bwrap", "args": [');
    host.die(3, null, T0 + 2000);
    await supervisor.tick(T0 + 2100);
    await supervisor.tick(T0 + 3100);
    const reason = `${file} is damaged (not JSON): the agent is not started without its sandbox`
      + " — run `org down`, then `org up`";
    expect(host.respawns).toEqual([]);
    expect(await status()).toMatchObject({ state: "failed", pid: null, restartAt: null, reason });
    await supervisor.tick(T0 + 20_000);
    expect(host.respawns).toEqual([]);
    await writeFile(file, JSON.stringify({ bwrap: "/usr/bin/bwrap", args: ["--die-with-parent"] }));
    expect(await readAgentSandbox(state, "alice")).toEqual({ bwrap: "/usr/bin/bwrap", args: ["--die-with-parent"] });
    await rm(file);
    expect(await readAgentSandbox(state, "alice")).toBeUndefined();
  });
});

test("paneLaunch execs the argv as data: no word of it reaches a shell parser", () => {
  expect(paneLaunch({ argv: ["claude", "$(touch x); `id`"], cwd: "/w", env: { A: "1" } })).toEqual({
    argv: ["/bin/sh", "-c", 'exec "$0" "$@"', "claude", "$(touch x); `id`"], cwd: "/w", env: { A: "1" },
  });
  expect(paneLaunch({ argv: ["claude"], cwd: "/w", env: { A: "1", PATH: "/s/bin:$(id)" } })).toEqual({
    argv: ["/bin/sh", "-c", 'PATH="$1"; export PATH; shift; exec "$@"', "org-agent", "/s/bin:$(id)", "claude"],
    cwd: "/w",
    env: { A: "1" },
  });
});
