import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { ConfigSchema, type OrgConfig } from "../../src/domain/config/schema.js";
import type { StopFile } from "../../src/domain/experiments/stop-state.js";
import type { OrgRecord } from "../../src/domain/state.js";
import { StopWatch, type StopControl } from "../../src/daemon/stop-watch.js";

const BASE = "b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0";
const configWith = (stop: Record<string, unknown>) => ConfigSchema.parse({
  runtimes: { bot: { command: ["bot"] } },
  roles: { researcher: { prompt: "p.md", runtime: "bot", count: 2 } },
  verify: { command: ["sh", "train.sh"], metric: { name: "val_bpb", pattern: "^val_bpb: ([0-9.]+)" } },
  stop: { grace: "1m", ...stop },
});
const HEADER = "commit\tval_bpb\tmemory_gb\tstatus\tdescription\tagent\tgpu\tseconds\ttime\n";
const row = (commit: string, metric: string, status: string, description: string) =>
  `${commit}\t${metric}\t0.0\t${status}\t${description}\tresearcher-1\tcpu\t2.0\t2030-01-01T00:00:00.000Z\n`;
const T0 = new Date("2030-01-01T00:01:00.000Z");
const later = (ms: number) => new Date(T0.getTime() + ms);

let root: string;
let config: OrgConfig;
let calls: string[];
let said: string[];
const control: StopControl = {
  stopAgents: async (_record, reason) => (calls.push(`stop: ${reason}`), ["researcher-1", "researcher-2"]),
  resumeAgents: async () => (calls.push("resume"), ["researcher-1", "researcher-2"]),
  writeReport: async () => (calls.push("report"), { path: join(root, "state/report.html") }),
  // stop.ablate's variants: one request queued, as startAblation would.
  ablate: async (_record, _config, cancel) => {
    calls.push(`ablate${cancel ? " (cancel)" : ""}`);
    const request = {
      id: "v1", agent: "researcher-1", commit: "c000001", kind: "ablate", description: "ablate", submittedAt: "",
    };
    writeFileSync(join(root, "state/queue/v1.json"), JSON.stringify(request));
    return { commit: "c".repeat(40) };
  },
};
const watch = () =>
  new StopWatch({ root, readConfig: async () => ({ loaded: { config } }), control, say: (line) => said.push(line) });
const stopFile = () => JSON.parse(readFileSync(join(root, "state/stop.json"), "utf8")) as StopFile;
const log = () => readFileSync(join(root, "state/log.md"), "utf8");
const inbox = (agent: string) =>
  readdirSync(join(root, "state/agents", agent, "inbox"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => readFileSync(join(root, "state/agents", agent, "inbox", name), "utf8"));

describe("the daemon's stop watch", () => {
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "org-stop-"));
    calls = [];
    said = [];
    mkdirSync(join(root, "state/queue"), { recursive: true });
    const record: OrgRecord = {
      version: 1,
      name: "t",
      root,
      repo: root,
      base: "main",
      baseCommit: BASE,
      socket: "none",
      session: "none",
      cpuMode: true,
      upAt: "2030-01-01T00:00:00.000Z",
      agents: ["researcher-1", "researcher-2"].map((name) => ({
        name,
        role: "researcher",
        runtime: "bot",
        branch: `org/t/${name}`,
        worktree: join(root, "worktrees", name),
        gpu: null,
        paneId: `%${name.at(-1)}`,
      })),
    };
    writeFileSync(join(root, "state/org.json"), JSON.stringify(record));
    writeFileSync(
      join(root, "state/results.tsv"),
      HEADER +
        row("b0b0b0b", "1.000000", "keep", "baseline") +
        row("c000001", "0.900000", "keep", "one") +
        row("c000002", "0.950000", "discard", "two"),
    );
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  test("while no condition is met, stop.json holds the distance to each", async () => {
    config = configWith({ max_experiments: 5, stall: 10 });
    await watch().tick(T0);
    expect(stopFile()).toEqual({
      kind: "running",
      at: T0.toISOString(),
      distances: [
        { key: "max_experiments", text: "2/5 experiments" },
        { key: "stall", text: "stall 1/10" },
      ],
    });
    expect(existsSync(join(root, "state/log.md"))).toBe(false);
  });

  test("met: the timeline, one message to every agent, the grace, " +
    "then the programs, the queue and the report", async () => {
    config = configWith({ max_experiments: 2 });
    // Usage not read yet: the cost so far is a floor, "+".
    const stops = watch();
    await stops.tick(T0);
    const reason = "max_experiments reached: 2 experiments of 2";
    expect(stopFile()).toMatchObject({
      kind: "stop",
      phase: "grace",
      key: "max_experiments",
      reason,
      cancel: false,
      graceUntil: later(60_000).toISOString(),
    });
    expect(log()).toBe(
      `## [2030-01-01] stop | ${reason}\n2 experiments · 0.0 GPU-h · $0.00+ · best val_bpb 0.9 (researcher-1 ` +
        `c000001)\nagents told (message ${/message (\S+)\)/.exec(log())![1]}); ` +
        `their programs stop at 2030-01-01T00:02:00.000Z; queued experiments finish\n\n`,
    );
    for (const agent of ["researcher-1", "researcher-2"]) {
      expect(inbox(agent)).toEqual([
        expect.stringMatching(
          new RegExp(
            `^---\\nid: \\S+\\nfrom: org\\nto: ${agent}\\ntime: \\S+\\nkind: stop\\n---\\n\\n# The org stops: ` +
              `${reason}\\n\\nYou have 1m \\(until 2030-01-01T00:02:00.000Z\\) ` +
              `to write your progress file \\(\\$ORG_PROGRESS\\)`,
          ),
        ),
      ]);
    }
    // Within the grace nothing is stopped; a confirmation queued when it ends is waited for.
    await stops.tick(later(30_000));
    expect(calls).toEqual([]);
    writeFileSync(
      join(root, "state/queue/r1-confirm.json"),
      JSON.stringify({
        id: "r1-confirm",
        agent: "researcher-1",
        commit: "c000001",
        kind: "confirm",
        description: "confirm",
        submittedAt: "",
      }),
    );
    await stops.tick(later(60_000));
    expect(calls).toEqual([`stop: ${reason}`]);
    expect(stopFile()).toMatchObject({ phase: "draining" });
    await stops.tick(later(63_000));
    expect(stopFile()).toMatchObject({ phase: "draining" });
    unlinkSync(join(root, "state/queue/r1-confirm.json"));
    await stops.tick(later(66_000));
    expect(calls).toEqual([`stop: ${reason}`, "report"]);
    expect(stopFile()).toMatchObject({
      kind: "stop",
      phase: "stopped",
      reason,
      stoppedAt: later(66_000).toISOString(),
      report: { path: join(root, "state/report.html") },
    });
    expect(
      log()
        .split("\n")
        .filter((line) => line.startsWith("## [")),
    ).toEqual([`## [2030-01-01] stop | ${reason}`, `## [2030-01-01] stopped | ${reason}`]);
    // Stopped stays stopped: nothing more is done or logged.
    await stops.tick(later(90_000));
    expect(calls).toHaveLength(2);
  });

  test("stop.ablate: once the queue drains, the best's ablation is queued once; the report waits for it", async () => {
    config = configWith({ max_experiments: 2, ablate: true });
    const stops = watch();
    await stops.tick(T0);
    await stops.tick(later(60_000));
    await stops.tick(later(63_000));
    const reason = "max_experiments reached: 2 experiments of 2";
    expect(calls).toEqual([`stop: ${reason}`, "ablate"]);
    expect(stopFile()).toMatchObject({ phase: "draining", ablated: { commit: "c".repeat(40) } });
    await stops.tick(later(66_000));
    expect(calls).toHaveLength(2);
    unlinkSync(join(root, "state/queue/v1.json"));
    await stops.tick(later(69_000));
    expect(calls).toEqual([`stop: ${reason}`, "ablate", "report"]);
    expect(log()).toContain(`## [2030-01-01] ablate | the org best ${"c".repeat(7)}: its variants queued\n`);
  });

  test("a limit raised in org.yaml resumes a stopped org: its agents start again and are told", async () => {
    config = configWith({ max_experiments: 2, grace: "1s" });
    const stops = watch();
    await stops.tick(T0);
    await stops.tick(later(1000));
    await stops.tick(later(2000));
    expect(stopFile()).toMatchObject({ phase: "stopped" });
    config = configWith({ max_experiments: 10 });
    await stops.tick(later(5000));
    expect(calls).toEqual(["stop: max_experiments reached: 2 experiments of 2", "report", "resume"]);
    expect(stopFile()).toEqual({
      kind: "running",
      at: later(5000).toISOString(),
      distances: [{ key: "max_experiments", text: "2/10 experiments" }],
    });
    expect(log()).toContain(
      "## [2030-01-01] resume | the stop no longer holds (stop.max_experiments now 10)\nwas: " +
        "max_experiments reached: 2 experiments of 2\nrestarted: researcher-1, researcher-2\n",
    );
    expect(inbox("researcher-1").some((message) => /\nkind: resume\n/.test(message))).toBe(true);
  });

  test("org up --resume's waiver resumes the same way, and the waived limit shows as such", async () => {
    config = configWith({ max_experiments: 2, grace: "1s" });
    const stops = watch();
    await stops.tick(T0);
    writeFileSync(join(root, "state/stop-waivers.json"), JSON.stringify({ max_experiments: 2 }));
    await stops.tick(later(500));
    // Still in its grace: no program was stopped, so none is restarted.
    expect(calls).toEqual([]);
    expect(log()).toContain(
      "resume | the stop no longer holds (org up --resume)\nwas: max_experiments reached: " +
        "2 experiments of 2\nno agent was stopped yet\n",
    );
    expect(stopFile()).toMatchObject({ kind: "running", distances: [{ text: "2/2 experiments (waived)" }] });
  });
});
