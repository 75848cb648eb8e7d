import { describe, expect, test } from "vitest";
import type { AgentLedger } from "../../../src/domain/experiments/request.js";
import type { DashboardModel } from "../../../src/domain/views/dashboard-model.js";
import type { OrgSnapshot } from "../../../src/domain/views/snapshot.js";
import { buildVerifierView, decideBaselineWait, type VerifierView } from "../../../src/domain/views/verifier.js";
import { renderStandings } from "../../../src/ui/dashboard-text.js";
import { renderStatus } from "../../../src/ui/status-table.js";
import { describeCrashedBaselines, formatVerifierLine } from "../../../src/ui/verifier-line.js";

const AGENTS = ["r-1", "r-2", "r-3", "r-4"];
const request = (id: string, agent: string) => ({ id, agent, kind: "candidate" as const });
const CRASH = "crash: no line matched /^val_bpb: ([0-9.]+)/; exit code 0";
const LOG = "/org/state/runs/2026-01-01T10-00-00-000Z-r-3-baseline.log";

// Eight queued requests, two with a run in progress (one on its second run), four agents in every state of a baseline.
const input = {
  agents: AGENTS,
  queue: [
    ...AGENTS.map((agent) => request(`t0-${agent}-baseline`, agent)),
    ...AGENTS.map((agent) => request(`t1-${agent}`, agent)),
  ],
  running: [
    { id: "t0-r-1-baseline", agent: "r-1" },
    { id: "t1-r-2-run2", agent: "r-2" },
    { id: "gone-r-4", agent: "r-4" },
  ],
  ledgers: new Map<string, AgentLedger | undefined>([
    ["r-1", { best: null, lastVerified: null, baseline: { samples: [1], mean: 1, sd: 0 } }],
    ["r-2", { best: { commit: "abc", metric: 1 }, lastVerified: "abc" }],
    ["r-3", { best: null, lastVerified: null, baselineCrash: CRASH, baselineLog: LOG }],
    ["r-4", undefined],
  ]),
};

describe("the verifier's view", () => {
  test("running and queued from the queue and the runs in progress; "
    + "baselines measured and crashed from the ledgers", () => {
    const view = buildVerifierView(input);
    expect(view).toEqual({
      running: 2, queued: 6, baselines: { done: 2, total: 4 }, crashed: [{ agent: "r-3", reason: CRASH, log: LOG }],
    });
    expect(formatVerifierLine(view)).toBe("verifier: 2 running, 6 queued · baselines 2/4, 1 crashed");
    expect(describeCrashedBaselines(view, "/org")).toEqual([
      `baseline crashed (r-3): ${CRASH} — run log: state/runs/2026-01-01T10-00-00-000Z-r-3-baseline.log`,
    ]);
    expect(formatVerifierLine(buildVerifierView({ ...input, queue: [], running: [], ledgers: new Map() }))).toBe(
      "verifier: 0 running, 0 queued · baselines 0/4",
    );
  });

  test("crashes with one reason are one line; a crash without a log has none", () => {
    const view: VerifierView = {
      running: 0, queued: 0, baselines: { done: 0, total: 2 },
      crashed: [{ agent: "r-1", reason: CRASH, log: LOG }, { agent: "r-2", reason: CRASH }],
    };
    expect(describeCrashedBaselines(view, "/elsewhere")).toEqual([
      `baseline crashed (r-1, r-2): ${CRASH} — run log: ../org/state/runs/2026-01-01T10-00-00-000Z-r-3-baseline.log`,
    ]);
    expect(
      describeCrashedBaselines({ ...view, crashed: [{ agent: "r-2", reason: "crash: timed out after 5m" }] }, "/org"),
    ).toEqual(["baseline crashed (r-2): crash: timed out after 5m"]);
  });

  test("org up --wait: waits until every baseline is judged; one that measured goes on; all crashed is broken", () => {
    const view = (done: number, crashed: number, total = 2): VerifierView => ({
      running: 0, queued: 0, baselines: { done, total },
      crashed: Array.from({ length: crashed }, (_, index) => ({ agent: `r-${index}`, reason: CRASH })),
    });
    expect(decideBaselineWait(view(0, 0))).toEqual({ kind: "waiting" });
    expect(decideBaselineWait(view(1, 0))).toEqual({ kind: "waiting" });
    expect(decideBaselineWait(view(0, 1))).toEqual({ kind: "waiting" });
    expect(decideBaselineWait(view(1, 1))).toEqual({
      kind: "measured",
      reason: "baselines 1/2: the base measures; 1 crashed",
    });
    expect(decideBaselineWait(view(2, 0))).toEqual({ kind: "measured", reason: "baselines 2/2: the base measures" });
    expect(decideBaselineWait(view(0, 2))).toEqual({
      kind: "broken",
      reason: "every baseline crashed (2/2), so no experiment can run — "
        + "fix the verify command or verify.metric.pattern (`org validate`), then `org down && org up`",
    });
  });
});

describe("where the views show it", () => {
  const view = buildVerifierView(input);

  test("org status: under the title, above the table", () => {
    const snapshot: OrgSnapshot = {
      name: "toy", root: "/org", running: true, mode: "tmux", socket: "org-toy-1", cpuMode: true,
      upAt: "2026-01-01T10:00:00Z",
      agents: AGENTS.map((name) => ({
        name, role: "r", gpu: null, pooled: false, pid: 1, state: "running" as const, restarts: 0, uptimeMs: 1000,
        branch: `org/toy/${name}`, head: null, reason: "",
      })),
    };
    const lines = renderStatus(snapshot, [], undefined, {
      verifierLines: [formatVerifierLine(view), ...describeCrashedBaselines(view, "/org")],
    }).split("\n");
    expect(lines.slice(1, 3)).toEqual([
      "verifier: 2 running, 6 queued · baselines 2/4, 1 crashed",
      `baseline crashed (r-3): ${CRASH} — run log: state/runs/2026-01-01T10-00-00-000Z-r-3-baseline.log`,
    ]);
    expect(lines[3]).toMatch(/^AGENT +ROLE /);
  });

  test("org watch: on the leaderboard's last line before any result, and each crash under it", () => {
    const model = {
      org: "toy", running: true, cpuMode: true, socket: "s", uptimeMs: 1000, gpus: [], pool: [], agents: [],
      metricName: "loss", goal: "minimize",
      standings: AGENTS.map((agent) => ({ agent, best: undefined, delta: undefined, runs: 0, keeps: 0, series: [] })),
      orgBest: undefined, events: [],
      verifier: { ...view, root: "/org" },
    } satisfies DashboardModel;
    const lines = renderStandings(model, "r-1", 200, 10, { color: false }).split("\n");
    expect(lines.at(-2)).toBe("no loss measured yet · verifier: 2 running, 6 queued · baselines 2/4, 1 crashed");
    expect(lines.at(-1)).toBe(
      `baseline crashed (r-3): ${CRASH} — run log: state/runs/2026-01-01T10-00-00-000Z-r-3-baseline.log`,
    );
    expect(lines).toHaveLength(7);
    expect(renderStandings({ ...model, verifier: undefined }, "r-1", 200, 10, { color: false }).split("\n").at(
      -1,
    )).toBe("no loss measured yet");
  });
});
