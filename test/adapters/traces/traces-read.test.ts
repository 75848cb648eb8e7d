import { copyFileSync, mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readAgentTrace } from "../../../src/adapters/traces/read-trace.js";
import { FIXTURES } from "../../helpers/org-cli.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";
import { makeLaunchSpec } from "../../helpers/launch-spec.js";

// Real transcripts (README.md beside them): "Let me look first." + `echo looking`, then an expectation + `org submit`.
const TRACES = join(FIXTURES, "transcripts/traces");
const PLACES: Record<string, [string, string]> = {
  claude: ["claude.jsonl", "projects/-work/session.jsonl"],
  codex: ["codex.jsonl", "sessions/2026/12/05/rollout-2026-12-05T05-13-02-x.jsonl"],
  gemini: ["gemini.jsonl", ".gemini/tmp/work/chats/session-x.jsonl"],
  opencode: ["opencode.db", "opencode/opencode.db"],
};
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/** A state folder whose agent a-1 runs `preset` with the fixture where its CLI writes it; returns the file's path. */
function placeAgent(preset: string, fixture = true): { state: string; file: string } {
  const dir = makeTempDir(`org-traces-${preset}-`);
  dirs.push(dir);
  const state = join(dir, "state");
  const home = join(state, "agents/a-1/home");
  const [from, to] = PLACES[preset] ?? ["", ""];
  const file = join(home, to);
  mkdirSync(dirname(file), { recursive: true });
  if (fixture) copyFileSync(join(TRACES, from), file);
  const launch = makeLaunchSpec({ agent: "a-1", runtime: { preset, home } });
  writeFileSync(join(state, "agents/a-1/launch.json"), JSON.stringify(launch));
  return { state, file };
}

const SUBMITTED = new RegExp(
  /^submitted abc1234 "halve lr"; waiting for the verifier…\n/.source +
  /metric 0\.910000 .* discard\nworse than your best\n?$/.source,
);

const SHAPE = [
  { kind: "user", text: expect.stringContaining("Please do research") },
  { kind: "assistant", text: "Let me look first." },
  { kind: "call", command: "echo looking" },
  { kind: "result", text: expect.stringMatching(/^looking\n?$/) },
  { kind: "assistant", text: "I expect halving the learning rate to lower val_loss below 0.8." },
  { kind: "call", command: 'org submit -m "halve lr"' },
  { kind: "result", text: expect.stringMatching(SUBMITTED) },
  { kind: "assistant", text: "The loss went up; I will try a smaller change. All done." },
];

describe("each real CLI's transcript as one timeline", () => {
  const presets = ["claude", "codex", "gemini", "opencode"];
  it.each(presets)("%s: what was said, run and printed, in order, with times", async (preset) => {
    const trace = await readAgentTrace(placeAgent(preset).state, "a-1");
    expect(trace.kind).toBe("read");
    if (trace.kind !== "read") return;
    expect(trace.problems).toEqual([]);
    expect(trace.events).toMatchObject(SHAPE);
    const inOrder = trace.events.every((event, index) =>
      event.at > 1.7e12 && (index === 0 || event.at >= trace.events[index - 1]!.at));
    expect(inOrder).toBe(true);
    // A call and its result carry the CLI's call id.
    expect(trace.events[2]).toHaveProperty("id", (trace.events[3] as { id?: string }).id);
  });

  it("a truncated transcript: what was read, and the truncation named; " +
    "a line that is not JSON is named by line", async () => {
    const { state, file } = placeAgent("claude");
    const lines = readFileSync(file, "utf8").split("\n");
    writeFileSync(file, `${lines.slice(0, 20).join("\n")}\nnot json\n${lines[20]!.slice(0, 50)}`);
    utimesSync(file, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
    const trace = await readAgentTrace(state, "a-1");
    if (trace.kind !== "read") throw new Error("not read");
    expect(trace.problems).toEqual([
      'projects/-work/session.jsonl:21: a line that is not JSON ("not json")',
      "projects/-work/session.jsonl: truncated — it ends in a half-written line (50 characters)",
    ]);
    expect(trace.events.length).toBeGreaterThan(2);
  });

  it("a half-written last line still being written (fresh) is no problem", async () => {
    const { state, file } = placeAgent("gemini");
    writeFileSync(file, `${readFileSync(file, "utf8")}{"id": "x", "type": "gem`);
    const trace = await readAgentTrace(state, "a-1");
    expect(trace).toMatchObject({ kind: "read", problems: [] });
  });

  it("a transcript that is a link is left alone (as the usage reader leaves it); " +
    "a file of another shape is named", async () => {
    const { state, file } = placeAgent("codex", false);
    symlinkSync("/etc/passwd", file);
    const other = join(dirname(file), "rollout-other.jsonl");
    writeFileSync(other, '{"hello": 1}\n');
    const trace = await readAgentTrace(state, "a-1");
    expect(trace).toEqual({ kind: "read", cli: "Codex", events: [], problems: [
      "sessions/2026/12/05/rollout-other.jsonl: an unknown shape — none of its 1 lines is a Codex transcript line",
    ] });
  });

  it("opencode: a file that is not SQLite is unreadable, said so", async () => {
    const { state, file } = placeAgent("opencode", false);
    writeFileSync(file, "garbage".repeat(50));
    const trace = await readAgentTrace(state, "a-1");
    expect(trace).toEqual({
      kind: "read",
      cli: "opencode",
      events: [],
      problems: [`cannot read opencode's database ${file}: not a SQLite database`],
    });
  });

  it("no transcript: a builtin, a generic program, an agent never started", async () => {
    const { state } = placeAgent("claude", false);
    const launchFile = join(state, "agents/a-1/launch.json");
    writeFileSync(launchFile, JSON.stringify(makeLaunchSpec({ agent: "a-1", argv: ["org", "builtin", "hillclimb"] })));
    expect(await readAgentTrace(state, "a-1")).toEqual({
      kind: "none",
      why: "a built-in researcher calls no model, so it writes no transcript",
    });
    const aider = makeLaunchSpec({ agent: "a-1", argv: ["aider"], runtime: { preset: "aider", home: "/x" } });
    writeFileSync(launchFile, JSON.stringify(aider));
    expect(await readAgentTrace(state, "a-1")).toEqual({
      kind: "none",
      why: "a aider runtime writes no transcript org can read " +
        "(org reads Claude Code, Codex, Gemini CLI and opencode)",
    });
    expect(await readAgentTrace(state, "b-1")).toEqual({
      kind: "none",
      why: "b-1 was never started by `org up` (no launch record), so its CLI wrote nothing yet",
    });
  });
});
