import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { PtyGrid } from "../../../src/adapters/pty/grid.js";
import { ORG_BIN } from "../../../src/adapters/real-world.js";
import type { PaneSpec } from "../../../src/domain/ports.js";
import { pollUntil } from "../../helpers/poll.js";
import { isRunning } from "../../helpers/processes.js";
import { makeTempDir } from "../../helpers/temp-repo.js";

const BIN = resolve("test/fixtures/bin");
let grid: PtyGrid | undefined;
let dir = "";

afterEach(async () => {
  await grid?.killServer();
  grid = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function makeGrid(orgArgv = [process.execPath, ORG_BIN]): { grid: PtyGrid; socket: string; state: string } {
  dir = makeTempDir("org-pty-grid-");
  const state = join(dir, "state");
  mkdirSync(join(state, "agents", "alpha"), { recursive: true });
  const socket = join(state, "pty.sock");
  grid = new PtyGrid(`pty:${socket}`, "org-toy", orgArgv);
  return { grid, socket, state };
}

/** Pids of `org pty-host` processes serving `socket`. */
// A pane the host is forking shows the host's args until it execs: only hosts whose parent is no host count.
function hostPids(socket: string): number[] {
  const out = execFileSync("ps", ["-eo", "pid=,ppid=,args="], { encoding: "utf8" });
  const found = out
    .split("\n")
    .filter((line) => line.includes(`pty-host --socket ${socket}`))
    .map((line) => line.trim().split(/\s+/).map(Number));
  const pids = new Set(found.map(([pid]) => pid));
  return found.filter(([, ppid]) => !pids.has(ppid)).map(([pid]) => pid!);
}

const pane = (
  argv: string[],
  options: Record<string, string>,
  logFile: string,
  env: Record<string, string> = {},
): PaneSpec => ({ argv, cwd: dir, env, options, logFile });

describe("PtyGrid: the grid port over a detached `org pty-host`", () => {
  test("createGrid starts the host and the panes; list, feed, supervisor host, " +
    "respawn, options, add and kill; killServer leaves nothing", async () => {
    const { grid: ptyGrid, socket, state } = makeGrid();
    expect(await ptyGrid.isRunning()).toBe(false);
    const created = await ptyGrid.createGrid([
      pane([join(BIN, "forever")], {}, join(state, "daemon.log")),
      pane(
        [join(BIN, "print-env-sleep")],
        { "@org_agent": "alpha", "@org_status": "running" },
        join(state, "agents", "alpha", "pane.log"),
        { ORG_AGENT: "alpha" },
      ),
    ]);
    expect(created.map((one) => [one.id, one.options["@org_agent"]])).toEqual([["%0", undefined], ["%1", "alpha"]]);
    expect(await ptyGrid.isRunning()).toBe(true);
    expect(hostPids(socket)).toHaveLength(1);
    const listed = await ptyGrid.listPanes();
    expect(listed.map((info) => [info.id, info.dead, info.options["@org_agent"] ?? null])).toEqual([
      ["%0", false, null],
      ["%1", false, "alpha"],
    ]);
    // The host opens the pane's log without waiting for it: listed, the pane may have none yet.
    const alphaLog = join(state, "agents", "alpha", "pane.log");
    await pollUntil(
      () => existsSync(alphaLog) && readFileSync(alphaLog, "utf8").includes("ORG_AGENT=alpha"),
      { what: "alpha's pane.log" },
    );

    const feed = ptyGrid.openPaneFeed();
    const capture = await pollUntil(async () => {
      const result = await feed.capture(["%1"]);
      return result.screens.get("%1")?.includes("ORG_AGENT=alpha") ? result : undefined;
    }, { what: "alpha's screen through the feed" });
    expect(capture.panes).toHaveLength(2);
    feed.close();

    const host = ptyGrid.openPaneHost();
    const agents = await host.listAgentPanes();
    expect(agents).toEqual([
      { agent: "alpha", id: "%1", pid: listed[1]!.pid, dead: false, exitCode: null, exitSignal: null, exitedAt: null },
    ]);
    await host.setStatus("%1", "restarting");
    await host.respawn("%1", { argv: [join(BIN, "exit-now")], cwd: dir, env: { EXIT_CODE: "4" } });
    const exited = await pollUntil(async () => (await host.listAgentPanes())?.find((agent) => agent.dead), {
      what: "the respawned program's exit",
    });
    expect(exited).toMatchObject({ agent: "alpha", exitCode: 4, exitSignal: null });
    expect(isRunning(listed[1]!.pid)).toBe(false);
    host.close();

    await ptyGrid.setPaneOptions("%1", { "@org_role": "researcher" });
    expect((await ptyGrid.listPanes())[1]!.options).toMatchObject({
      "@org_agent": "alpha",
      "@org_status": "restarting",
      "@org_role": "researcher",
    });
    await ptyGrid.respawnPane("%1");
    const [added] = await ptyGrid.addPanes([
      pane([join(BIN, "forever")], { "@org_agent": "beta" }, join(state, "agents", "beta", "pane.log")),
    ]);
    expect(added).toBe("%2");
    await ptyGrid.killPanes(["%1"]);
    const left = await ptyGrid.listPanes();
    expect(left.map((info) => info.id)).toEqual(["%0", "%2"]);

    const hosts = hostPids(socket);
    await ptyGrid.killServer();
    expect(await ptyGrid.isRunning()).toBe(false);
    expect(await ptyGrid.listPanes()).toEqual([]);
    expect(existsSync(socket)).toBe(false);
    await pollUntil(() => [...hosts, ...left.map((info) => info.pid)].every((pid) => !isRunning(pid)), {
      what: "the host and every pane gone",
    });
  });

  test("attach runs the dashboard on the org's folder; a host that cannot start is a clear error", async () => {
    const { grid: ptyGrid, state } = makeGrid([process.execPath, join(BIN, "exit-now")]);
    expect(ptyGrid.attachArgv()).toEqual([process.execPath, join(BIN, "exit-now"), "-C", dir, "watch"]);
    await expect(ptyGrid.createGrid([pane([join(BIN, "forever")], {}, join(state, "daemon.log"))])).rejects.toThrow(
      /^the pty host did not start \(.*\) — see .*pty-host\.log, or use tmux$/,
    );
    expect(await ptyGrid.isRunning()).toBe(false);
  });
});
