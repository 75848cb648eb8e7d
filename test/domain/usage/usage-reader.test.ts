import { spawn } from "node:child_process";
import { appendFileSync, chmodSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AgentUsageReader } from "../../../src/adapters/usage/agent.js";
import { readJsonlUsage } from "../../../src/adapters/usage/jsonl.js";
import { UsagePoller } from "../../../src/daemon/usage-poller.js";
import { usageFormatOf } from "../../../src/domain/usage/usage-formats.js";
import { parseLedger } from "../../../src/domain/usage/ledger.js";
import { usagePaths } from "../../../src/domain/usage/summary.js";
import { viewUsage, type UsageSummary } from "../../../src/domain/usage/summary.js";
import { FIXTURES, PACKAGE_ROOT } from "../../helpers/org-cli.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";
import { makeLaunchSpec } from "../../helpers/launch-spec.js";

const CLAUDE = readFileSync(join(FIXTURES, "transcripts/claude/session.jsonl"), "utf8");
const PRICING = { "claude-opus-*": { input: 15, output: 75, cache_read: 1.5, cache_write: 18.75 } };
// The fixture's three replies as the server sent them (README.md beside it).
const SERVED = { input: 3021, output: 123, cacheRead: 903, cacheWrite: 150 };

let dir: string;
let home: string;
beforeEach(() => {
  dir = makeTempDir("org-usage-");
  home = join(dir, "home");
  mkdirSync(join(dir, "state/agents/c-1"), { recursive: true });
  writeFileSync(join(dir, "state/agents/c-1/launch.json"), JSON.stringify(
    makeLaunchSpec({ agent: "c-1", runtime: { preset: "claude", home } }),
  ));
});
afterEach(() => removeDir(dir));

const transcript = () => join(home, "projects/-work/s.jsonl");
const summary = () => JSON.parse(readFileSync(usagePaths(join(dir, "state"), "c-1").summary, "utf8")) as UsageSummary;
const ledger = () => parseLedger(readFileSync(usagePaths(join(dir, "state"), "c-1").ledger, "utf8"));
const poll = (reader = new AgentUsageReader(join(dir, "state"), "c-1"), at = new Date()) =>
  reader.poll(at, PRICING).then(() => reader);

function writeTranscript(text: string, ageMs = 0): void {
  mkdirSync(join(home, "projects/-work"), { recursive: true });
  writeFileSync(transcript(), text);
  const at = new Date(Date.now() - ageMs);
  utimesSync(transcript(), at, at);
}

describe("the daemon's reading of one agent's transcripts", () => {
  it("reads by byte offset: a half-written last line waits for its end, "
    + "then every reply counts once, priced", async () => {
    const cut = CLAUDE.indexOf("msg_000003") + 20;
    writeTranscript(CLAUDE.slice(0, cut));
    const reader = await poll();
    expect(summary()).toMatchObject({ cli: "Claude Code", replies: 1, input: 1000, output: 40 });
    expect(summary().unknown).toBeUndefined();
    appendFileSync(transcript(), CLAUDE.slice(cut));
    await poll(reader);
    expect(summary()).toMatchObject({ ...SERVED, replies: 3, priced: true, byModel: { "claude-opus-5-5": SERVED } });
    expect(summary().costUsd).toBeCloseTo((3021 * 15 + 123 * 75 + 903 * 1.5 + 150 * 18.75) / 1e6, 12);
    expect(ledger().map((record) => record.input)).toEqual([1000, 1007, 1014]);
  });

  it("a restarted daemon goes on from where it stopped, "
    + "and without its cursors re-reads without counting twice", async () => {
    writeTranscript(CLAUDE);
    await poll();
    await poll();
    rmSync(usagePaths(join(dir, "state"), "c-1").cursors);
    await poll();
    expect(ledger()).toHaveLength(3);
    expect(summary()).toMatchObject({ ...SERVED, replies: 3 });
  });

  it("a ledger cut mid-line by a crash: the next append starts a line of its own", async () => {
    writeTranscript(CLAUDE);
    writeFileSync(usagePaths(join(dir, "state"), "c-1").ledger, '{"id":"x:y","at":1,"mod');
    await poll();
    expect(ledger()).toHaveLength(3);
    expect(readFileSync(usagePaths(join(dir, "state"), "c-1").ledger, "utf8").split("\n")[0])
      .toBe('{"id":"x:y","at":1,"mod');
  });

  it("a model without a price: tokens counted, cost null, unpriced with why", async () => {
    writeTranscript(CLAUDE);
    const reader = new AgentUsageReader(join(dir, "state"), "c-1");
    await reader.poll(new Date(), { "gpt-*": { input: 1, output: 2 } });
    expect(summary()).toMatchObject({
      ...SERVED, costUsd: null, priced: false,
      unpriced: 'no price for model "claude-opus-5-5" under pricing in org.yaml',
    });
  });

  it("truncated: a half-written last line left for a minute makes the usage unknown, with why", async () => {
    writeTranscript(CLAUDE.slice(0, CLAUDE.indexOf("msg_000003") + 20), 120_000);
    await poll();
    const view = viewUsage(readFileSync(usagePaths(join(dir, "state"), "c-1").summary, "utf8"));
    expect(view).toMatchObject({
      input: 1000,
      unknown: expect.stringMatching(
        new RegExp(/^projects\/-work\/s\.jsonl: truncated — it ends in a half-written line \(\d+ bytes\) /.source
          + /unchanged for 60s, so its last reply may be missing$/.source),
      ),
    });
  });

  it("a directory where a transcript should be, and a file of an unknown shape", async () => {
    mkdirSync(join(home, "projects/-work/odd.jsonl"), { recursive: true });
    writeFileSync(join(home, "projects/-work/other.jsonl"), '{"hello":"world"}\n');
    await poll();
    expect(summary().unknown).toBe("projects/-work/odd.jsonl is a directory, not a transcript file (and 1 more)");
    rmSync(join(home, "projects/-work/odd.jsonl"), { recursive: true });
    await poll();
    expect(summary().unknown).toBe(
      "projects/-work/other.jsonl: an unknown shape — none of its 1 lines is a Claude Code transcript line",
    );
  });

  it("unreadable (permission denied): usage unknown, with why", async () => {
    writeTranscript(CLAUDE);
    chmodSync(transcript(), 0o000);
    // Root reads any file: the read runs as nobody then, which a mode of 000 stops.
    const read = process.getuid?.() === 0
      ? await readAsNobody(join(home, "projects"))
      : await readJsonlUsage(join(home, "projects"), usageFormatOf("claude") as never, {}, Date.now());
    expect(read.problems).toEqual(["cannot read projects/-work/s.jsonl: permission denied"]);
    expect(read.records).toEqual([]);
  });

  it("a program that records no usage (a builtin) shows none, not unknown; no summary yet is unknown", async () => {
    expect(viewUsage(undefined)).toMatchObject({ unknown: expect.stringContaining("not read yet") });
    writeFileSync(join(dir, "state/agents/c-1/launch.json"), JSON.stringify(makeLaunchSpec({ agent: "c-1" })));
    await poll();
    expect(summary()).toMatchObject({ cli: null, none: "a builtin runtime calls no model" });
    expect(viewUsage(readFileSync(usagePaths(join(dir, "state"), "c-1").summary, "utf8"))).toBeNull();
  });

  it("never takes the daemon down: a broken agent is said once, the others are still read", async () => {
    writeTranscript(CLAUDE);
    writeFileSync(join(dir, "state/org.json"), JSON.stringify({ agents: [{ name: "broken" }, { name: "c-1" }] }));
    // Its ledger is a folder: every append fails.
    mkdirSync(join(dir, "state/agents/broken/usage.jsonl"), { recursive: true });
    writeFileSync(join(dir, "state/agents/broken/launch.json"), JSON.stringify(
      makeLaunchSpec({ agent: "broken", runtime: { preset: "claude", home } }),
    ));
    const said: string[] = [];
    const poller = new UsagePoller({
      root: dir,
      readConfig: async () => ({ problems: ["bad"] }),
      say: (line) => said.push(line),
    });
    await poller.tick(new Date());
    await poller.tick(new Date(Date.now() + 1));
    expect(summary()).toMatchObject({ replies: 3 });
    expect(said).toEqual([expect.stringMatching(/^usage: broken: EISDIR/)]);
  });
});

describe("the ledger, state/agents/<agent>/usage.jsonl", () => {
  it("a reply appended twice counts once; a foreign line and a half-written last line are skipped", () => {
    const line = JSON.stringify({ id: "s:m1", at: 1, model: "m", input: 1, output: 2, cacheRead: 3, cacheWrite: 4 });
    expect(parseLedger(`${line}\n${line}\nnot json\n{"id":"x"}\n{"id":"s:m2","at":2,"mo`)).toEqual([
      { id: "s:m1", at: 1, model: "m", input: 1, output: 2, cacheRead: 3, cacheWrite: 4 },
    ]);
  });
});

/** readJsonlUsage in a child process running as nobody (uid 65534). */
function readAsNobody(folder: string): Promise<{ records: unknown[]; problems: string[] }> {
  chmodSync(dir, 0o755);
  for (const sub of ["home", "home/projects", "home/projects/-work"]) chmodSync(join(dir, sub), 0o755);
  const code = `import { readJsonlUsage } from ${JSON.stringify(join(PACKAGE_ROOT, "src/adapters/usage/jsonl.ts"))};
import { usageFormatOf } from ${JSON.stringify(join(PACKAGE_ROOT, "src/domain/usage/usage-formats.ts"))};
console.log(JSON.stringify(await readJsonlUsage(${JSON.stringify(folder)}, usageFormatOf("claude"), {}, Date.now())));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
      uid: 65534, gid: 65534, cwd: PACKAGE_ROOT, stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk));
    child.on("error", reject);
    child.on("close", (status) => (status === 0
      ? resolve(JSON.parse(out) as { records: unknown[]; problems: string[] })
      : reject(new Error(`exit ${status}: ${err}`))));
  });
}
