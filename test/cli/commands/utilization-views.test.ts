// Utilization where people look: org status (header and --json), org results (a line), org report (a plot), from real
// state files.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { runReport } from "../../../src/cli/commands/report.js";
import { runResults } from "../../../src/cli/commands/results.js";
import { runStatus } from "../../../src/cli/commands/status.js";
import { readStartTicks } from "../../../src/adapters/process.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";

const T = Date.parse("2026-01-01T10:00:00Z");
const at = (minutes: number) => new Date(T + minutes * 60_000).toISOString();
const slot = (gpu: number, kind: string, run: number) => ({
  slot: `gpu${gpu}`,
  gpu,
  agent: `r-${gpu + 1}`,
  commit: "abcdef0123",
  kind,
  run,
});

let root: string | undefined;
afterEach(() => {
  if (root) removeDir(root);
  root = undefined;
});

/**
 * An org up at 10:00 on 2 GPUs whose daemon last beat at 12:00 (so the window ends there, whatever the clock says):
 * gpu0 busy 10:00–11:00 and 11:00–11:30, gpu1 running since 11:40 (this test's own process), and a start a killed
 * daemon lost.
 */
function writeOrg(): string {
  root = makeTempDir("org-utilization-");
  const state = join(root, "state");
  mkdirSync(state);
  writeFileSync(
    join(state, "org.json"),
    JSON.stringify({
      version: 1,
      name: "t",
      root,
      repo: root,
      base: "main",
      baseCommit: "abc",
      socket: `org-none-${process.pid}`,
      session: "none",
      cpuMode: false,
      upAt: at(0),
      agents: [],
    }),
  );
  writeFileSync(join(state, "daemon.json"), JSON.stringify({ pid: null, heartbeatAt: at(120) }));
  writeFileSync(join(state, "gpu-slots.json"), JSON.stringify({ unit: "gpu", slots: ["gpu0", "gpu1"] }));
  writeFileSync(join(state, "gpu-runs.jsonl"), [
    { id: "a", ...slot(0, "baseline", 1), start: at(0), pid: 2, ticks: 1 },
    { id: "a", ...slot(0, "baseline", 1), start: at(0), end: at(60) },
    { id: "b", ...slot(0, "confirmation", 2), start: at(60), end: at(90) },
    { id: "lost", ...slot(1, "candidate", 1), start: at(10), pid: 2 ** 22 + 1, ticks: 1 },
    { id: "c", ...slot(1, "candidate", 1), start: at(100), pid: process.pid, ticks: readStartTicks(process.pid) },
  ].map((line) => JSON.stringify(line)).join("\n") + "\n");
  writeFileSync(
    join(state, "results.tsv"),
    [
      "commit\tval_bpb\tmemory_gb\tstatus\tdescription\tagent\tgpu\tseconds\ttime",
      `abcdef0\t1.000000\t1.0\tkeep\tbaseline\tr-1\t0\t5.0\t${at(60)}`,
      "",
    ].join("\n"),
  );
  return root;
}

function capture(): { io: { out: (text: string) => void; err: (text: string) => void }; text: () => string } {
  const out: string[] = [];
  return { io: { out: (text) => out.push(text), err: (text) => out.push(text) }, text: () => out.join("\n") };
}

// Busy 60 + 30 + 20 = 110 of 240 GPU-minutes (46%); the last hour, 11:00–12:00, 30 + 20 of 120 (42%).
test("org status: the header says gpu 46% (last hour 42%); --json has the figures", async () => {
  const dir = writeOrg();
  const text = capture();
  expect(await runStatus({ root: dir, json: false }, text.io)).toBe(0);
  expect(text.text().split("\n")[0]).toBe(`org t: down · tmux -L org-none-${process.pid} · gpu 46% (last hour 42%)`);
  const json = capture();
  await runStatus({ root: dir, json: true }, json.io);
  const { utilization } = JSON.parse(json.text()) as { utilization: Record<string, number> };
  expect(utilization).toEqual({
    unit: "gpu",
    gpus: 2,
    overall: 110 / 240,
    busySeconds: 6600,
    wallSeconds: 7200,
    lastHour: 50 / 120,
    lastHourBusySeconds: 3000,
    lastHourWallSeconds: 3600,
  });
});

test("org status of a CPU-only org says cpu slots; with no verifier yet, no figure at all", async () => {
  const dir = writeOrg();
  writeFileSync(
    join(dir, "state", "gpu-slots.json"),
    JSON.stringify({ unit: "slot", slots: ["cpu0", "cpu1", "cpu2", "cpu3"] }),
  );
  const text = capture();
  await runStatus({ root: dir, json: false }, text.io);
  expect(text.text().split("\n")[0]).toBe(
    `org t: down · tmux -L org-none-${process.pid} · cpu slots 0% (last hour 0%)`,
  );
  removeDir(join(dir, "state", "gpu-slots.json"));
  const none = capture();
  await runStatus({ root: dir, json: false }, none.io);
  expect(none.text().split("\n")[0]).toBe(`org t: down · tmux -L org-none-${process.pid}`);
});

test("after org down (no daemon.json) the clock stops at the last run's end, not at the time of asking", async () => {
  const dir = writeOrg();
  removeDir(join(dir, "state", "daemon.json"));
  const runs = readFileSync(join(dir, "state", "gpu-runs.jsonl"), "utf8")
    .split("\n")
    .filter((line) => !line.includes('"id":"c"'));
  writeFileSync(join(dir, "state", "gpu-runs.jsonl"), runs.join("\n"));
  const json = capture();
  await runStatus({ root: dir, json: true }, json.io);
  // gpu0 busy 90 of the 90 minutes to its last run's end, gpu1 none: 50%, and 60 of 120 GPU-minutes in the hour before.
  expect((JSON.parse(json.text()) as { utilization: unknown }).utilization).toMatchObject({
    overall: 0.5,
    wallSeconds: 5400,
    lastHour: 0.5,
    lastHourWallSeconds: 3600,
  });
});

test("org results: a utilization line under the leaderboard, and the figures in --json", async () => {
  const dir = writeOrg();
  const text = capture();
  await runResults({ root: dir, json: false }, text.io);
  expect(text.text().split("\n").at(-1)).toBe(
    "utilization: gpu 46% since org up 2h00m ago (2 GPUs; 1h50m of verify runs), last hour 42%",
  );
  const json = capture();
  await runResults({ root: dir, json: true }, json.io);
  expect((JSON.parse(json.text()) as { utilization: { overall: number } }).utilization.overall).toBe(110 / 240);
});

test("org report: the utilization plot under the progress chart, " +
  "one bar per 5 minutes, in the same page", { timeout: 60_000 }, async () => {
  const dir = writeOrg();
  await runReport({ root: dir, x: "index" }, capture().io);
  const html = readFileSync(join(dir, "state", "report.html"), "utf8");
  expect(html).toContain(
    '<p class="summary">utilization: gpu 46% since org up 2h00m ago (2 GPUs; 1h50m of verify runs), last hour 42%</p>',
  );
  expect(html.indexOf('<div id="utilization-chart"')).toBeGreaterThan(html.indexOf('<div id="chart"'));
  const spec = JSON.parse(
    /<script type="application\/json" id="utilization-spec">(.*?)<\/script>/s.exec(html)![1]!,
  ) as { data: { name: string; values: { utilization: number }[] }[] };
  const buckets = spec.data.find((data) => data.name === "buckets")!.values;
  expect(buckets).toHaveLength(24);
  expect(buckets.slice(16, 20).map((bucket) => bucket.utilization)).toEqual([0.5, 0.5, 0, 0]);
  expect(buckets.slice(20).map((bucket) => bucket.utilization)).toEqual([0.5, 0.5, 0.5, 0.5]);
  // The pre-rendered SVG draws the same bars.
  const group = html.slice(html.indexOf("utilization_marks"), html.indexOf("</g>", html.indexOf("utilization_marks")));
  expect(group.match(/<path /g)).toHaveLength(24);
});
