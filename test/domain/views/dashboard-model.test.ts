import { describe, expect, test } from "vitest";
import {
  buildDashboardModel, parseLogHeadings, type DashboardInput,
} from "../../../src/domain/views/dashboard-model.js";
import { renderPaneLabel } from "../../../src/ui/dashboard-text.js";
import { decideRestart } from "../../../src/domain/views/dashboard-restart.js";
import type { PaneInfo } from "../../../src/domain/ports.js";
import { parseResults } from "../../../src/domain/experiments/results-table.js";
import type { AgentStatus, OrgRecord } from "../../../src/domain/state.js";

const record: OrgRecord = {
  version: 1, name: "toy", root: "/org", repo: "/org", base: "main", baseCommit: "abc", socket: "org-toy-123456",
  session: "org-toy", cpuMode: false,
  agents: [
    {
      name: "researcher-1", role: "researcher", runtime: "claude", branch: "org/toy/researcher-1",
      worktree: "/org/worktrees/researcher-1", gpu: 1, paneId: "%1",
    },
    {
      name: "researcher-2", role: "researcher", runtime: "claude", branch: "org/toy/researcher-2",
      worktree: "/org/worktrees/researcher-2", gpu: 0, paneId: "%2",
    },
    {
      name: "critic-1", role: "critic", runtime: "claude", branch: "org/toy/critic-1",
      worktree: "/org/worktrees/critic-1", gpu: 0, paneId: "%3",
    },
  ],
  controlPaneId: "%0",
  upAt: "2026-01-01T10:00:00.000Z",
};

const pane = (id: string, dead = false): PaneInfo => ({ id, pid: 100, dead, deadStatus: dead ? 1 : null, options: {} });
const status = (agent: string, pid: number): AgentStatus => ({
  agent, state: "running", pid, startedAt: "2026-01-01T10:01:00.000Z", restarts: 2, consecutiveFailures: 0,
  lastExit: null, reason: "running claude", updatedAt: "",
});

const RESULTS = [
  "commit\tval_bpb\tmemory_gb\tstatus\tdescription\tagent\tgpu\tseconds\ttime",
  "aaaaaaa\t1.000000\t1.0\tkeep\tbaseline\tresearcher-1\t1\t5.0\t2026-01-01T10:02:00Z",
  "bbbbbbb\t1.100000\t1.0\tdiscard\twider\tresearcher-1\t1\t5.0\t2026-01-01T10:03:00Z",
  "ccccccc\t0.000000\t0.0\tcrash\toom\tresearcher-1\t1\t5.0\t2026-01-01T10:04:00Z",
  "ddddddd\t0.900000\t1.0\tkeep\tlr 2x\tresearcher-1\t1\t5.0\t2026-01-01T10:05:00Z",
  "eeeeeee\t0.950000\t1.0\tkeep\tbaseline\tresearcher-2\t0\t5.0\t2026-01-01T10:06:00Z",
  "",
].join("\n");

function input(overrides: Partial<DashboardInput> = {}): DashboardInput {
  return {
    record,
    panes: [pane("%0"), pane("%1"), pane("%2"), pane("%3", true)],
    screens: new Map([["%1", "step 1\nstep 2   \n\n\n"], ["%2", ""]]),
    statuses: new Map([
      ["researcher-1", status("researcher-1", 201)],
      ["researcher-2", status("researcher-2", 202)],
      ["critic-1", undefined],
    ]),
    isAlive: () => true,
    rows: parseResults(RESULTS).rows,
    metricName: "val_bpb",
    goal: "minimize",
    logText: "# log\n## [2026-01-01] up | started 3 agents\nleases …\n\\## [2026-01-01] fake | escaped\n"
      + "## [2026-01-01] keep | researcher-1 ddddddd val_bpb 0.9\n",
    now: new Date("2026-01-01T11:30:05.000Z"),
    ...overrides,
  };
}

describe("buildDashboardModel", () => {
  test("joins the record, panes, statuses, results and log into one model", () => {
    const model = buildDashboardModel(input());
    expect(model.org).toBe("toy");
    expect(model.running).toBe(true);
    expect(model.uptimeMs).toBe(90 * 60_000 + 5000);
    expect(model.gpus).toEqual([
      { gpu: 0, agents: ["researcher-2", "critic-1"] },
      { gpu: 1, agents: ["researcher-1"] },
    ]);
    expect(model.agents.map((agent) => [agent.name, agent.state, agent.paneId, agent.pid])).toEqual([
      ["researcher-1", "running", "%1", 201], ["researcher-2", "running", "%2", 202],
      ["critic-1", "restarting", "%3", null],
    ]);
    expect(model.agents[0]!.screen).toEqual(["step 1", "step 2"]);
    expect(model.agents[1]!.screen).toEqual([]);
    expect(model.agents[0]!.restarts).toBe(2);
  });

  test("standings: best first with delta and the measured series; agents without results last", () => {
    const model = buildDashboardModel(input());
    expect(model.standings).toEqual([
      { agent: "researcher-1", best: 0.9, delta: expect.closeTo(-0.1, 9), runs: 3, keeps: 1, series: [1, 1.1, 0.9] },
      // Baselines are no runs: as `org results` and `org history` count them.
      { agent: "researcher-2", best: 0.95, delta: 0, runs: 0, keeps: 0, series: [0.95] },
      { agent: "critic-1", best: undefined, delta: undefined, runs: 0, keeps: 0, series: [] },
    ]);
    expect(model.orgBest).toEqual({ agent: "researcher-1", metric: 0.9 });
  });

  test("maximize ranks the highest first", () => {
    const model = buildDashboardModel(input({ goal: "maximize" }));
    expect(model.standings.map((standing) => [standing.agent, standing.best])).toEqual([
      ["researcher-1", 1],
      ["researcher-2", 0.95],
      ["critic-1", undefined],
    ]);
  });

  test("a down org: no panes, every agent stopped, no uptime", () => {
    const model = buildDashboardModel(input({ panes: [], screens: new Map() }));
    expect(model.running).toBe(false);
    expect(model.uptimeMs).toBeNull();
    expect(model.agents.every((agent) => agent.state === "stopped" && agent.reason === "org is down")).toBe(true);
  });

  test("CPU mode has no GPU map", () => {
    const cpu = { ...record, cpuMode: true, agents: record.agents.map((agent) => ({ ...agent, gpu: null })) };
    expect(buildDashboardModel(input({ record: cpu })).gpus).toEqual([]);
  });

  test("an A/B run tags each agent with its half's program, and the pane label shows it", () => {
    const ab = {
      at: "2026-01-01T10:00:00.000Z",
      a: { version: "aaaa1111", file: "org.yaml", agents: ["researcher-1", "researcher-2"] },
      b: { version: "bbbb2222", file: "other.yaml", agents: ["critic-1"] },
    };
    const model = buildDashboardModel(input({ ab }));
    expect(model.agents.map((agent) => [agent.name, agent.program])).toEqual([
      ["researcher-1", "aaaa1111"],
      ["researcher-2", "aaaa1111"],
      ["critic-1", "bbbb2222"],
    ]);
    expect(renderPaneLabel(model.agents[2]!, false, 80)).toBe("critic-1 · restarting · gpu 0 · bbbb2222");
    expect(buildDashboardModel(input()).agents.map((agent) => agent.program)).toEqual([
      undefined, undefined, undefined,
    ]);
  });
});

describe("parseLogHeadings", () => {
  test("only `## [` headings, oldest first, the last `limit`; escaped headings in bodies are not events", () => {
    const text = input().logText;
    expect(parseLogHeadings(text, 10)).toEqual([
      { date: "2026-01-01", op: "up", title: "started 3 agents" },
      { date: "2026-01-01", op: "keep", title: "researcher-1 ddddddd val_bpb 0.9" },
    ]);
    expect(parseLogHeadings(text, 1)).toEqual([
      { date: "2026-01-01", op: "keep", title: "researcher-1 ddddddd val_bpb 0.9" },
    ]);
    expect(parseLogHeadings(text, 0)).toEqual([]);
    expect(parseLogHeadings("## [2026-01-02] down\r\n", 5)).toEqual([{ date: "2026-01-02", op: "down", title: "" }]);
  });
});

describe("decideRestart", () => {
  const agent = { name: "researcher-1", state: "running" as const, pid: 201, reason: "running claude", paneId: "%1" };
  test("a running program is signalled; its supervisor restarts it by policy", () => {
    expect(decideRestart(agent, true)).toEqual({
      kind: "signal", agent: "researcher-1", pid: 201,
      reason: "SIGTERM to researcher-1's program (pid 201); its supervisor restarts it by its restart policy",
    });
  });
  test("an agent given up on, finished or blocked gets its pane respawned", () => {
    expect(decideRestart({ ...agent, state: "blocked", pid: null, reason: "not logged in" }, true)).toMatchObject({
      kind: "respawn",
      paneId: "%1",
    });
    expect(
      decideRestart({ ...agent, state: "failed", pid: null, reason: "gave up after 3 restarts" }, true),
    ).toMatchObject({ kind: "respawn", paneId: "%1" });
    expect(decideRestart(
      { ...agent, state: "stopped", pid: null, reason: "exited with code 0; restart policy is never" },
      true,
    )).toMatchObject({ kind: "respawn", paneId: "%1" });
  });
  test("refused while the org is down, mid-restart, or without a pane", () => {
    expect(decideRestart(agent, false)).toEqual({
      kind: "refuse",
      agent: "researcher-1",
      reason: "the org is down — start it with `org up`",
    });
    expect(
      decideRestart({ ...agent, state: "restarting", pid: null, reason: "program exited; supervisor deciding" }, true),
    ).toEqual({
      kind: "refuse", agent: "researcher-1",
      reason: "researcher-1 is restarting (program exited; supervisor deciding) — "
        + "wait for it to settle, then press r again",
    });
    expect(decideRestart({ ...agent, state: "stopped", pid: null, reason: "its pane is gone" }, true).kind)
      .toBe("refuse");
    expect(decideRestart({ ...agent, state: "failed", pid: null, paneId: null }, true).kind).toBe("refuse");
  });
});
