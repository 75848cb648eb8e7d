import { describe, expect, test } from "vitest";
import { buildLeaderboard, parseResults } from "../../src/domain/experiments/results-table.js";
import { escapeHtml, renderReportHtml } from "../../src/ui/report-html.js";
import { buildProgress } from "../../src/ui/report-points.js";
import { buildProgressSpec } from "../../src/ui/report-spec.js";

const RESULTS = [
  "commit\tval_bpb\tmemory_gb\tstatus\tdescription\tagent\tgpu\tseconds\ttime",
  "a000001\t1.000000\t1.0\tkeep\tbaseline\tr-1\t0\t5.0\t2026-01-01T10:00:00Z",
  "a000002\t0.990000\t1.0\tkeep\tbaseline\tr-2\t1\t5.0\t2026-01-01T10:01:00Z",
  "a000003\t1.200000\t1.0\tdiscard\twider\tr-1\t0\t5.0\t2026-01-01T10:02:00Z",
  "a000004\t0.000000\t0.0\tcrash\toom </script>\tr-2\t1\t5.0\t2026-01-01T10:03:00Z",
  "a000005\t0.950000\t1.0\tkeep\tlr 2x\tr-1\t0\t5.0\t2026-01-01T10:04:00Z",
  "a000006\t0.000000\t0.0\treject\ttouched prepare.py\tr-1\t0\t5.0\t2026-01-01T10:05:00Z",
  "a000007\t0.980000\t1.0\tdiscard\tdeeper\tr-2\t1\t5.0\t2026-01-01T10:06:00Z",
  "",
].join("\n");
const rows = parseResults(RESULTS).rows;

describe("buildProgress", () => {
  test("every experiment numbered in file order; measured and failed apart; " +
    "each agent's running best as steps to the end", () => {
    const progress = buildProgress(rows, "minimize");
    expect(progress.measured.map((point) => [point.n, point.agent, point.metric, point.kept])).toEqual([
      [1, "r-1", 1, true],
      [2, "r-2", 0.99, true],
      [3, "r-1", 1.2, false],
      [5, "r-1", 0.95, true],
      [7, "r-2", 0.98, false],
    ]);
    expect(progress.failed.map((point) => [point.n, point.status, point.description])).toEqual([
      [4, "crash", "oom </script>"],
      [6, "reject", "touched prepare.py"],
    ]);
    expect(progress.steps).toEqual([
      { n: 1, time: "2026-01-01T10:00:00Z", agent: "r-1", best: 1 },
      { n: 2, time: "2026-01-01T10:01:00Z", agent: "r-2", best: 0.99 },
      { n: 5, time: "2026-01-01T10:04:00Z", agent: "r-1", best: 0.95 },
      { n: 7, time: "2026-01-01T10:06:00Z", agent: "r-1", best: 0.95 },
      { n: 7, time: "2026-01-01T10:06:00Z", agent: "r-2", best: 0.99 },
    ]);
    expect(progress.agents).toEqual(["r-1", "r-2"]);
  });

  test("maximize: a kept lower value is not a new best", () => {
    const steps = buildProgress(rows, "maximize").steps.filter((step) => step.agent === "r-1");
    expect(steps.map((step) => [step.n, step.best])).toEqual([[1, 1], [7, 1]]);
  });

  test("no rows, no points", () => {
    expect(buildProgress([], "minimize")).toEqual({ measured: [], failed: [], steps: [], agents: [] });
  });
});

describe("buildProgressSpec", () => {
  const progress = buildProgress(rows, "minimize");
  const spec = buildProgressSpec(progress, {
    title: "org toy",
    metricName: "val_bpb",
    goal: "minimize",
    x: "index",
  }) as unknown as {
    datasets: Record<string, unknown[]>;
    layer: {
      name: string;
      mark: { type: string; interpolate?: string };
      encoding: Record<string, { field?: string; type?: string; value?: unknown }>;
    }[];
  };

  test("three layers over named datasets: step lines, " +
    "experiment points with tooltips, failures on the worse edge", () => {
    expect(spec.layer.map((layer) => [layer.name, layer.mark.type])).toEqual([
      ["best", "line"],
      ["experiments", "point"],
      ["failures", "point"],
    ]);
    expect(spec.layer[0]!.mark.interpolate).toBe("step-after");
    expect(spec.datasets.measured).toHaveLength(5);
    expect(spec.datasets.failed).toHaveLength(2);
    expect(spec.layer[1]!.encoding.color).toMatchObject({ field: "agent" });
    expect(JSON.stringify(spec.layer[1]!.encoding.tooltip)).toContain('"field":"description"');
    expect(spec.layer[2]!.encoding.y).toEqual({ value: 0 });
    const maximize = buildProgressSpec(progress, {
      title: "t",
      metricName: "acc",
      goal: "maximize",
      x: "time",
    }) as unknown as typeof spec;
    expect(maximize.layer[2]!.encoding.y).toEqual({ value: 380 });
    expect(maximize.layer[1]!.encoding.x).toMatchObject({ field: "time", type: "temporal" });
  });
});

describe("renderReportHtml", () => {
  const page = {
    title: "org <toy>",
    summary: "7 experiments",
    metricName: "val_bpb",
    board: buildLeaderboard(rows, "minimize"),
    vegaSpec: { description: "oom </script><b>" },
    runtime: "var vega = {}; // </script> in a comment",
    svg: "<svg></svg>",
  };
  const html = renderReportHtml(page);

  test("self-contained: the runtime and spec inline, no external script or stylesheet", () => {
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).not.toMatch(/<link /);
    expect(html.match(/<\/script>/g)).toHaveLength(3);
    expect(html).toContain("var vega = {}; // <\\/script> in a comment");
    expect(html).toContain('{"description":"oom \\u003c/script>\\u003cb>"}');
    expect(html).toContain("<noscript><svg></svg></noscript>");
  });

  test("the leaderboard table, escaped", () => {
    expect(html).toContain("<title>org &#60;toy&#62;</title>");
    expect(html).toContain(
      "<tr><td>r-1</td><td>1.000000</td><td>0.950000</td><td>-0.050000</td><td>a000005</td>" +
        "<td>3</td><td>0</td><td>1</td><td>1</td><td>0</td><td>1</td></tr>",
    );
    expect(html).toContain("org best: val_bpb 0.950000 by r-1 at a000005");
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;");
  });
});
