import { describe, expect, test } from "vitest";
import { ConfigSchema } from "../../../src/domain/config/schema.js";
import { buildLeaderboard, type ResultRow } from "../../../src/domain/experiments/results-table.js";
import { trimProgress } from "../../../src/domain/tasks/task-progress.js";
import { decideStandup } from "../../../src/domain/tasks/standup-due.js";
import { renderDigest, type JuniorReport } from "../../../src/domain/tasks/standup-digest.js";
import { resolveTaskTarget } from "../../../src/domain/tasks/task-file.js";

const NOW = new Date("2026-01-07T11:00:00.000Z");
const due = (last: { at: string; verdicts: number } | undefined, verdicts: number) =>
  decideStandup({ now: NOW, last, verdicts, everyMs: 30 * 60_000, verdictsEvery: 10 });

describe("when a standup is due", () => {
  test.each([
    ["a first look only starts the count", undefined, 7, { kind: "start", reason: "counting from 7 verdicts" }],
    [
      "enough new verdicts",
      { at: "2026-01-07T10:55:00.000Z", verdicts: 5 },
      15,
      { kind: "due", reason: "10 verdicts since the last standup" },
    ],
    [
      "too few, too soon",
      { at: "2026-01-07T10:55:00.000Z", verdicts: 5 },
      8,
      { kind: "wait", reason: "3 verdicts of 10 and 5m of 30m since the last standup" },
    ],
    [
      "the period passed with news",
      { at: "2026-01-07T10:20:00.000Z", verdicts: 5 },
      6,
      { kind: "due", reason: "40m and 1 verdict since the last standup" },
    ],
    [
      "the period passed with nothing new",
      { at: "2026-01-07T10:20:00.000Z", verdicts: 5 },
      5,
      { kind: "wait", reason: "no verdict in the 40m since the last standup: nothing to report" },
    ],
    [
      "results.tsv started over",
      { at: "2026-01-07T10:59:00.000Z", verdicts: 40 },
      12,
      { kind: "due", reason: "12 verdicts since the last standup" },
    ],
  ])("%s", (_, last, verdicts, expected) => {
    expect(due(last, verdicts)).toEqual(expected);
  });
});

const row = (
  agent: string,
  status: ResultRow["status"],
  metric: number | undefined,
  description: string,
  minute: number,
): ResultRow => ({
  commit: `${agent.slice(-1)}${String(minute).padStart(6, "0")}`, metric, memoryGb: 1, status, description, agent,
  gpu: 0, seconds: 30, time: `2026-01-07T10:${String(minute).padStart(2, "0")}:00.000Z`,
});

describe("the standup digest", () => {
  const rows = [
    row("junior-1", "keep", 1.0, "baseline", 1), row("junior-2", "keep", 1.0, "baseline", 2),
    row("junior-1", "keep", 0.97, "cosine schedule", 10), row("junior-1", "discard", 0.99, "warmup 10%", 20),
    row("junior-2", "crash", undefined, "batch 4096\nOOM", 25),
  ];
  const board = buildLeaderboard(rows, "minimize");
  const reports: JuniorReport[] = [
    {
      agent: "junior-1", state: "running",
      task: { from: "chief-1", time: "2026-01-07T10:05:00.000Z", title: "Try learning-rate schedules" },
      rows: rows.filter((r) => r.agent === "junior-1"), standing: board.agents.find((a) => a.agent === "junior-1"),
    },
    {
      agent: "junior-2", state: "failed: exited with code 1", task: undefined,
      rows: rows.filter((r) => r.agent === "junior-2"), standing: board.agents.find((a) => a.agent === "junior-2"),
    },
  ];
  const render = (maxBytes: number) => renderDigest({
    now: NOW, reason: "10 verdicts since the last standup", metric: "val_bpb", juniors: reports, latest: 2, maxBytes,
    best: board.best,
  });

  test("per junior: its task, best, counts, latest results and crashes", () => {
    expect(render(16_384)).toBe(`# Standup 2026-01-07 11:00 UTC

10 verdicts since the last standup. Org best: val_bpb 0.97 by junior-1 (1000010).

## junior-1 — running
- task from chief-1 at 10:05: Try learning-rate schedules
- best: val_bpb 0.97 (-0.03 vs baseline 1) at 1000010
- runs: 2 (1 keep, 1 discard, 0 crash, 0 reject)
- latest: discard 0.99 "warmup 10%" · keep 0.97 "cosine schedule"

## junior-2 — failed: exited with code 1
- task: none — give one with \`org task\`
- best: val_bpb 1 (the baseline) at 2000002
- runs: 1 (0 keep, 0 discard, 1 crash, 0 reject)
- latest: crash "batch 4096 OOM" · keep 1 "baseline"
- crashes: 1, the latest "batch 4096 OOM" at 10:25

Details: \`org results\`; a junior's task is state/agents/<junior>/task.md.
`);
  });

  test("bounded: juniors that do not fit are counted, not listed", () => {
    const text = render(520);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(520);
    expect(text).toContain("## junior-1 — running");
    expect(text).not.toContain("## junior-2");
    expect(text).toContain("… and 1 more juniors: `org results`");
  });
});

describe("progress.md caps", () => {
  test("under the cap it is left alone", () => {
    expect(trimProgress("- did a thing\n", 512)).toBeUndefined();
  });

  test("over the cap the oldest lines move out, the newest stay within three quarters of it, "
    + "and trimming again keeps one marker", () => {
    const lines = Array.from({ length: 40 }, (_, i) =>
      `- step ${String(i + 1).padStart(2, "0")}: tried something and measured it`);
    const first = trimProgress(`${lines.join("\n")}\n`, 1024)!;
    expect(Buffer.byteLength(first.kept)).toBeLessThanOrEqual(768);
    expect(first.kept.split("\n")[0]).toBe("<!-- org moved older lines of this file to progress-archive.md -->");
    expect(first.kept.trimEnd().split("\n").at(-1)).toBe(lines.at(-1));
    expect([...first.archived, ...first.kept.trimEnd().split("\n").slice(1)]).toEqual(lines);
    const second = trimProgress(`${first.kept}${lines.join("\n")}\n`, 1024)!;
    expect(second.kept.match(/<!-- org moved/g)).toHaveLength(1);
  });
});

describe("who may set a task", () => {
  const config = ConfigSchema.parse({
    runtimes: { bot: { command: ["bot"] } },
    roles: {
      chief: { prompt: "p.md", runtime: "bot" },
      junior: { prompt: "p.md", runtime: "bot", count: 2, reports_to: "chief" },
      loner: { prompt: "p.md", runtime: "bot" },
    },
  });
  const chief = { kind: "agent" as const, agent: "chief-1", role: "chief" };

  test.each([
    ["the chief, for its junior", chief, "junior-2", { ok: true, agent: "junior-2", role: "junior" }],
    ["a person, for anyone", { kind: "person" as const }, "loner-1", { ok: true, agent: "loner-1", role: "loner" }],
    [
      "a junior, for its chief",
      { kind: "agent" as const, agent: "junior-1", role: "junior" },
      "chief-1",
      {
        ok: false,
        reason: "junior-1 may not give chief-1 a task: role chief does not report to role junior — add reports_to: "
          + "junior to roles.chief in org.yaml",
      },
    ],
    [
      "the chief, for an agent reporting to no one",
      chief,
      "loner-1",
      {
        ok: false,
        reason: "chief-1 may not give loner-1 a task: role loner does not report to role chief — add reports_to: "
          + "chief to roles.loner in org.yaml",
      },
    ],
    [
      "a name with ../",
      chief,
      "../junior-1",
      { ok: false, reason: 'agent "../junior-1" contains ".", "/" — name an agent such as chief-1' },
    ],
    [
      "a name with a slash",
      chief,
      "junior/1",
      { ok: false, reason: 'agent "junior/1" contains "/" — name an agent such as chief-1' },
    ],
    [
      "an unknown agent",
      chief,
      "junior-3",
      { ok: false, reason: 'no agent named "junior-3" in org.yaml — did you mean "junior-1"?' },
    ],
  ])("%s", (_, sender, target, expected) => {
    expect(resolveTaskTarget(config, sender, target)).toEqual(expected);
  });
});
