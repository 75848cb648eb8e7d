import { describe, expect, it } from "vitest";
import { buildLeaderboard, parseResults } from "../../src/domain/experiments/results-table.js";
import type { OrgSnapshot } from "../../src/domain/views/snapshot.js";
import { buildResultsUsage } from "../../src/domain/usage/windows.js";
import type { AgentUsage } from "../../src/domain/usage/summary.js";
import type { UsageRecord } from "../../src/domain/usage/token-counts.js";
import { attributeWindows, costKeeps } from "../../src/domain/usage/windows.js";
import { renderLeaderboard } from "../../src/ui/leaderboard.js";
import { renderReportHtml } from "../../src/ui/report-html.js";
import { renderStatus } from "../../src/ui/status-table.js";
import { buildDashboardModel } from "../../src/domain/views/dashboard-model.js";
import { renderStandings } from "../../src/ui/dashboard-text.js";
import { formatTokens, formatUsd } from "../../src/ui/usage-format.js";

const T = Date.parse("2026-01-01T10:00:00Z");
const at = (seconds: number) => new Date(T + seconds * 1000).toISOString();
// Verdict times and run seconds: each experiment's submit is its verdict less its seconds.
const RESULTS = [
  "commit\tval_bpb\tmemory_gb\tstatus\tdescription\tagent\tgpu\tseconds\ttime",
  `aaaaaaa\t1.000000\t1.0\tkeep\tbaseline\ta\t0\t5.0\t${at(10)}`,
  `bbbbbbb\t1.100000\t1.0\tdiscard\twider\ta\t0\t5.0\t${at(30)}`,
  `ccccccc\t0.900000\t1.0\tkeep\tlr 2x\ta\t0\t10.0\t${at(60)}`,
  `ddddddd\t0.950000\t1.0\tkeep\tbaseline\tb\t1\t5.0\t${at(20)}`,
  "",
].join("\n");
const rows = parseResults(RESULTS).rows;
const reply = (id: string, seconds: number, input: number, model = "m"): UsageRecord => ({
  id,
  at: T + seconds * 1000,
  model,
  input,
  output: 10,
  cacheRead: 0,
  cacheWrite: 0,
});
// Before the baseline's submit; while it was judged; before the
// discard's submit; before the keep's; while it was judged; after.
const ledgers = new Map([
  [
    "a",
    [
      reply("r1", 1, 100),
      reply("r2", 7, 200),
      reply("r3", 20, 300),
      reply("r4", 40, 400),
      reply("r5", 55, 500),
      reply("r6", 70, 600),
    ],
  ],
]);
const PRICING = { m: { input: 10, output: 20 } };

describe("tokens per experiment window and per kept improvement", () => {
  it("a window runs from the agent's previous verdict to this experiment's submit", () => {
    const windows = attributeWindows(rows, ledgers, PRICING);
    expect(windows.map((window) => window && [window.input, window.replies])).toEqual([
      [100, 1],
      [300, 1],
      [400, 1],
      undefined,
    ]);
    expect(windows[2]!.costUsd).toBeCloseTo((400 * 10 + 10 * 20) / 1e6, 12);
  });

  it("a kept improvement costs everything since the agent's previous keep, " +
    "up to its submit; a baseline is no improvement", () => {
    expect(costKeeps(rows, ledgers, PRICING)).toEqual([
      {
        agent: "a",
        commit: "ccccccc",
        metric: 0.9,
        description: "lr 2x",
        time: at(60),
        experiments: 2,
        usage: { input: 700, output: 20, cacheRead: 0, cacheWrite: 0, replies: 2, costUsd: (700 * 10 + 20 * 20) / 1e6 },
      },
    ]);
  });

  it("an unpriced model leaves the span's dollars null, with why", () => {
    const [, , keep] = attributeWindows(rows, new Map([["a", [reply("x", 40, 1, "other")]]]), PRICING);
    expect(keep).toMatchObject({
      input: 1,
      costUsd: null,
      unpriced: 'no price for model "other" under pricing in org.yaml',
    });
  });
});

describe("where tokens and dollars show", () => {
  it("org results: per agent tokens, cost and cost per keep, then each kept improvement", () => {
    const usage = buildResultsUsage(rows, ledgers, PRICING);
    const text = renderLeaderboard(
      buildLeaderboard(rows, "minimize"),
      "val_bpb",
      "minimize",
      { sigma: undefined, runs: 0 },
      usage,
    );
    const lines = text.split("\n");
    expect(lines[0]).toMatch(/REJECT {2}TOKENS {2}COST {3}COST\/KEEP$/);
    expect(lines[1]).toMatch(/^a .* 2\.16k {3}\$0\.02 {2}\$0\.02$/);
    expect(lines[2]).toMatch(/^b .* 0 {7}- {7}- {6}-$/);
    expect(lines).toContain("cost per kept improvement:");
    expect(lines).toContain("  ccccccc a val_bpb 0.900000: 720 tokens, $0.0074 over 2 experiments");
  });

  it("org status: a TOKENS $ column, and why for an unknown or unpriced usage", () => {
    const snapshot: OrgSnapshot = {
      name: "toy",
      root: "/org",
      running: true,
      mode: "tmux",
      socket: "org-toy-1",
      cpuMode: true,
      upAt: at(0),
      agents: ["c-1", "x-1", "h-1", "g-1"].map((name) => ({
        name,
        role: "r",
        gpu: null,
        pooled: false,
        pid: 1,
        state: "running" as const,
        restarts: 0,
        uptimeMs: 1000,
        branch: `org/toy/${name}`,
        head: null,
        reason: "",
      })),
    };
    const usage = new Map<string, AgentUsage | null>([
      ["c-1", { input: 1_200_000, output: 30_000, cacheRead: 0, cacheWrite: 0, costUsd: 3.4, priced: true }],
      [
        "x-1",
        {
          input: 5000,
          output: 200,
          cacheRead: 0,
          cacheWrite: 0,
          costUsd: null,
          priced: false,
          unpriced: 'no price for model "gpt-5" under pricing in org.yaml',
        },
      ],
      ["h-1", null],
      [
        "g-1",
        {
          input: 10,
          output: 1,
          cacheRead: 0,
          cacheWrite: 0,
          costUsd: null,
          priced: false,
          unknown: "projects/x.jsonl: truncated",
        },
      ],
    ]);
    const lines = renderStatus(snapshot, [], usage).split("\n");
    // verify.gpus: pool — an agent with no GPU of its own shows "pool", not "cpu".
    expect(
      renderStatus({
        ...snapshot,
        cpuMode: false,
        agents: snapshot.agents.map((agent) => ({ ...agent, pooled: true })),
      }).split("\n")[2],
    ).toMatch(/^c-1 +r +pool +1 /);
    expect(lines[1]).toMatch(/HEAD {2}TOKENS \$ {8}NOTE$/);
    expect(lines[2]).toMatch(/ 1\.23M \$3\.40$/);
    expect(lines[3]).toMatch(/ 5\.20k unpriced$/);
    expect(lines[4]).toMatch(/ -$/);
    expect(lines[5]).toMatch(/ unknown$/);
    expect(lines.slice(6)).toEqual([
      'x-1: unpriced: no price for model "gpt-5" under pricing in org.yaml',
      "g-1: usage unknown: projects/x.jsonl: truncated",
    ]);
  });

  it("org report: tokens and cost columns and a table of kept improvements", () => {
    const usage = buildResultsUsage(rows, ledgers, PRICING);
    const html = renderReportHtml({
      title: "t",
      summary: "s",
      metricName: "val_bpb",
      board: buildLeaderboard(rows, "minimize"),
      vegaSpec: {},
      runtime: "",
      svg: "",
      usage,
    });
    expect(html).toContain("<th>tokens</th><th>cost</th><th>cost per keep</th>");
    expect(html).toContain("<td>2.16k</td><td>$0.02</td><td>$0.02</td>");
    expect(html).toContain('<table id="keep-costs">');
    expect(html).toContain("<td>ccccccc</td><td>a</td><td>0.900000</td><td>2</td><td>720 tokens, $0.0074</td>");
  });

  it("org watch: a TOKENS $ column in the leaderboard once any agent's program records usage", () => {
    const record = {
      version: 1 as const,
      name: "toy",
      root: "/org",
      repo: "/org",
      base: "main",
      baseCommit: "abc",
      socket: "s",
      session: "s",
      cpuMode: true,
      upAt: at(0),
      agents: ["a", "b"].map((name) => ({
        name,
        role: "r",
        runtime: "claude",
        branch: `org/toy/${name}`,
        worktree: `/w/${name}`,
        gpu: null,
      })),
    };
    const base = {
      record,
      panes: [],
      screens: new Map(),
      statuses: new Map(),
      isAlive: () => true,
      rows,
      metricName: "val_bpb",
      goal: "minimize" as const,
      logText: "",
      now: new Date(T),
    };
    const usage = new Map<string, AgentUsage | null>([
      ["a", { input: 2_000_000, output: 0, cacheRead: 0, cacheWrite: 0, costUsd: 6, priced: true }],
      ["b", null],
    ]);
    const lines = renderStandings(buildDashboardModel({ ...base, usage }), "a", 70, 5, { color: false }).split("\n");
    expect(lines[0]).toBe("  AGENT      BEST     DELTA RUNS      TOKENS $  TREND");
    expect(lines[1]).toBe("▶ a      0.900000   -0.1000    2   2.00M $6.00  ▄█▁");
    expect(lines[2]).toBe("  b      0.950000     0.000    0             -  ▄");
    expect(renderStandings(buildDashboardModel(base), "a", 70, 5, { color: false }).split("\n")[0]).toBe(
      "  AGENT      BEST     DELTA RUNS  TREND",
    );
  });

  it("compact figures", () => {
    expect([999, 1000, 12_345, 123_456, 1_234_567, 2.5e9].map(formatTokens)).toEqual([
      "999",
      "1.00k",
      "12.3k",
      "123k",
      "1.23M",
      "2.50G",
    ]);
    expect([0, 1e-7, 0.0042, 0.016, 3.4, 123.4].map(formatUsd)).toEqual([
      "$0",
      "<$0.0001",
      "$0.0042",
      "$0.02",
      "$3.40",
      "$123",
    ]);
  });
});
