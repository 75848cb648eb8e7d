import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { runOrg } from "../../helpers/org-cli.js";
import { createRepo, makeTempDir, removeDir } from "../../helpers/temp-repo.js";

const ORG_YAML = `name: rpt
gpus: none
runtimes:
  idle: { command: [sleep, "1000"] }
roles:
  researcher: { prompt: prompts/r.md, runtime: idle, count: 3 }
verify:
  command: [python3, train.py]
  metric: { name: val_bpb, pattern: '^val_bpb:\\s*([0-9.]+)', goal: minimize }
`;

// 3 agents, 23 experiments: baselines, keeps, discards, crashes and rejects; one description tries to break out of the
// page.
function resultsTsv(): { text: string; measured: number; kept: number; failed: number } {
  const lines = ["commit\tval_bpb\tmemory_gb\tstatus\tdescription\tagent\tgpu\tseconds\ttime"];
  let measured = 0;
  let kept = 0;
  let failed = 0;
  for (let i = 1; i <= 23; i++) {
    const agent = `researcher-${(i % 3) + 1}`;
    const status = i <= 3 ? "keep" : i % 7 === 0 ? "crash" : i % 11 === 0 ? "reject" : i % 3 === 0 ? "keep" : "discard";
    const metric = status === "crash" || status === "reject" ? 0 : 1 - i * 0.004 + (i % 4) * 0.003;
    if (status === "crash" || status === "reject") failed += 1;
    else measured += 1;
    if (status === "keep") kept += 1;
    const description =
      i === 5 ? `</script><img src=x onerror="document.title='pwned'"> idea ${i}` : i <= 3 ? "baseline" : `idea ${i}`;
    lines.push(
      [
        `c${String(i).padStart(6, "0")}`,
        metric.toFixed(6),
        "1.0",
        status,
        description,
        agent,
        "cpu",
        "3.0",
        `2026-01-01T10:${String(i).padStart(2, "0")}:00Z`,
      ].join("\t"),
    );
  }
  return { text: `${lines.join("\n")}\n`, measured, kept, failed };
}

function chromium(url: string, flags: string[], userDataDir: string): string {
  const result = spawnSync(
    "chromium",
    [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      `--user-data-dir=${userDataDir}`,
      "--virtual-time-budget=5000",
      ...flags,
      url,
    ],
    { encoding: "utf8", timeout: 60_000 },
  );
  if (result.error)
    throw new Error(`chromium did not run (${result.error.message}) — apt-get install chromium; .ci/run installs it`);
  return result.stdout;
}

function countSymbols(svg: string, layer: string): number {
  const start = svg.indexOf(`class="mark-symbol role-mark ${layer}_marks"`);
  if (start < 0) return 0;
  const group = svg.slice(start, svg.indexOf("</g>", start));
  return (group.match(/<path /g) ?? []).length;
}

let dir: string | undefined;
afterEach(() => {
  if (dir) removeDir(dir);
  dir = undefined;
});

describe("org report", () => {
  test("the HTML page, opened in headless Chromium, draws one point per " +
    "measured experiment, marks the failures, and hovers descriptions", () => {
    dir = createRepo({ "org.yaml": ORG_YAML, "prompts/r.md": "# r\n", "train.py": "print(1)\n" });
    const results = resultsTsv();
    mkdirSync(join(dir, "state"));
    writeFileSync(join(dir, "state", "results.tsv"), results.text);
    // Up 10:00–10:30 (the daemon's last beat) on 2 CPU slots: 30 one-minute bars under the progress chart.
    writeFileSync(join(dir, "state", "org.json"), JSON.stringify({ upAt: "2026-01-01T10:00:00Z", agents: [] }));
    writeFileSync(join(dir, "state", "daemon.json"), JSON.stringify({ heartbeatAt: "2026-01-01T10:30:00Z" }));
    writeFileSync(join(dir, "state", "gpu-slots.json"), JSON.stringify({ unit: "slot", slots: ["cpu0", "cpu1"] }));
    writeFileSync(
      join(dir, "state", "gpu-runs.jsonl"),
      `${JSON.stringify({
        id: "a", slot: "cpu0", gpu: null, agent: "researcher-1", commit: "c000001", kind: "baseline", run: 1,
        start: "2026-01-01T10:01:00Z", end: "2026-01-01T10:20:00Z",
      })}\n`,
    );

    const run = runOrg(["report"], { cwd: dir });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const html = join(dir, "state", "report.html");
    const svgPath = join(dir, "state", "progress.svg");
    expect(run.stdout.trim()).toBe(
      `wrote ${html} and ${svgPath}: 23 experiments by 3 agents: ${results.measured} measured, ${results.kept} kept, ` +
        `${results.failed} crashed or rejected; minimize val_bpb`,
    );

    const dom = chromium(`file://${html}#selftest`, ["--dump-dom"], join(dir, "chromium"));
    const body = /<body([^>]*)>/.exec(dom)?.[1] ?? "";
    expect(body).toContain('data-rendered="1"');
    expect(body).toContain(`data-points="${results.measured}"`);
    expect(body).toContain(`data-failures="${results.failed}"`);
    expect(body).toContain('data-utilization="30"');
    expect(body).toMatch(
      new RegExp(
        /data-hover="idea: baseline\nagent: researcher-2\nstatus: keep\nval_bpb: 0\.999000\nexperiment: 1\n/.source +
        /commit: c000001"/.source,
      ),
    );
    // The description that tries to close the script and inject markup stays data: the title is unchanged, no <img>
    // exists.
    expect(dom.includes("<title>org rpt: progress report</title>")).toBe(true);
    expect(/<img[^>]*onerror/.test(dom)).toBe(false);
    expect(dom.includes('<table id="leaderboard">')).toBe(true);
    expect((dom.match(/<tr><td>researcher-\d<\/td>/g) ?? []).length).toBe(3);

    const svg = readFileSync(svgPath, "utf8");
    expect(svg.startsWith("<svg")).toBe(true);
    expect(countSymbols(svg, "experiments")).toBe(results.measured);
    expect(countSymbols(svg, "failures")).toBe(results.failed);
  });

  test("a screenshot of the page is not blank", () => {
    dir = createRepo({ "org.yaml": ORG_YAML, "prompts/r.md": "# r\n", "train.py": "print(1)\n" });
    mkdirSync(join(dir, "state"));
    writeFileSync(join(dir, "state", "results.tsv"), resultsTsv().text);
    expect(runOrg(["report", "-o", "out/page.html", "--svg", "out/chart.svg", "--x", "time"], { cwd: dir }).code).toBe(
      0,
    );
    const shot = join(dir, "shot.png");
    chromium(
      `file://${join(dir, "out", "page.html")}`,
      [`--screenshot=${shot}`, "--window-size=1100,900"],
      join(dir, "chromium"),
    );
    expect(existsSync(shot)).toBe(true);
    // A blank white page compresses to a few kB; axes, points and the table take far more.
    expect(readFileSync(shot).length).toBeGreaterThan(30_000);
    expect(existsSync(join(dir, "out", "chart.svg"))).toBe(true);
  });

  test("bad input: no results yet, an unknown --x, " +
    "a time axis without times — each a clear error, nothing written", () => {
    dir = makeTempDir();
    writeFileSync(join(dir, "org.yaml"), ORG_YAML);
    const run = runOrg(["report"], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(
      `org: no results yet in ${join(dir, "state", "results.tsv")} — nothing to plot; ` +
        `run experiments first (agents call \`org submit\`)`,
    );
    expect(existsSync(join(dir, "state", "report.html"))).toBe(false);
    expect(existsSync(join(dir, "state", "progress.svg"))).toBe(false);
    const bad = runOrg(["report", "--x", "commits"], { cwd: dir });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("argument 'commits' is invalid. Allowed choices are index, time.");

    // autoresearch's own five columns: no agent, no time. By index it plots; by time it cannot.
    mkdirSync(join(dir, "state"));
    writeFileSync(
      join(dir, "state", "results.tsv"),
      "commit\tval_bpb\tmemory_gb\tstatus\tdescription\na1b2c3d\t0.997900\t44.0\tkeep\tbaseline\n",
    );
    const untimed = runOrg(["report", "--x", "time"], { cwd: dir });
    expect(untimed.code).toBe(1);
    expect(untimed.stderr.trim()).toBe(
      `org: row 1 of ${join(dir, "state", "results.tsv")} has no time (an autoresearch five-column file?) — ` +
        `plot by experiment with --x index`,
    );
    expect(existsSync(join(dir, "state", "report.html"))).toBe(false);
    const indexed = runOrg(["report"], { cwd: dir });
    expect(indexed.code).toBe(0);
    expect(indexed.stdout).toContain("1 experiment by 1 agent: 1 measured, 1 kept, 0 crashed or rejected");
  });
});

