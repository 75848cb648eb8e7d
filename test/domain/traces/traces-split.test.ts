import { describe, expect, it } from "vitest";
import { splitExperiments, type TracedResult } from "../../../src/domain/traces/experiments.js";
import type { TraceEvent } from "../../../src/domain/traces/events.js";
import { compileGrep, parseSince } from "../../../src/domain/traces/filters.js";
import { isSubmitCommand, readSubmitAnswer, readSubmitMessage } from "../../../src/domain/traces/submit-command.js";

const said = (at: number, text: string): TraceEvent => ({ kind: "assistant", at, text });
const ran = (at: number, command: string, id?: string): TraceEvent =>
  ({ kind: "call", at, tool: "Bash", command, ...(id ? { id } : {}) });
const got = (at: number, text: string, id?: string): TraceEvent =>
  ({ kind: "result", at, text, ...(id ? { id } : {}) });
const row = (commit: string, description: string, at: number, id?: string): TracedResult => ({
  agent: "a-1", commit: commit.padEnd(40, "0"), status: "discard", metric: 1, description,
  time: new Date(at).toISOString(), ...(id ? { id } : {}),
});

describe("submits in a transcript", () => {
  it.each([
    ['org submit -m "x"', true],
    ["cd w && /o/state/bin/org submit --no-wait -m 'y'", true],
    ["(org submit -m z)", true],
    ["org submitted", false], ["echo org", false], ["borg submit -m x", false], ["org tried submit", false],
  ])("%s is a submit: %s", (command, expected) => expect(isSubmitCommand(command)).toBe(expected));

  it("its message and what org printed back", () => {
    expect(readSubmitMessage('org submit -m "say \\"hi\\" now"')).toBe('say "hi" now');
    expect(readSubmitMessage("org submit --message='lr 0.02'")).toBe("lr 0.02");
    expect(readSubmitMessage("org submit -m lr")).toBe("lr");
    expect(readSubmitMessage("org submit")).toBeUndefined();
    const id = "2026-12-05T05-13-00-000Z-a-1-abc1234";
    expect(readSubmitAnswer(`queued abc1234 "x" as ${id}\nits verdict comes…`)).toEqual({ commit: "abc1234", id });
    expect(readSubmitAnswer(`{"id": "${id}", "commit": "abc1234ff"}`)).toEqual({ commit: "abc1234ff", id });
    expect(readSubmitAnswer("nothing to submit: no changes since abc1234")).toEqual({});
  });
});

describe("the timeline split per experiment", () => {
  const events = [
    said(1, "trying a"),
    ran(2, 'org submit --no-wait -m "a"', "t1"),
    got(3, 'queued aaaaaaa "a" as 2026-x-a-1-aaaaaaa', "t1"),
    said(4, "b should win"), ran(5, "python train.py"), got(6, "loss 1"), ran(7, 'org submit -m "b"', "t2"),
    said(9, "b lost; c next"), ran(10, "git diff"), ran(11, 'org submit -m "c"'),
    got(12, "nothing to submit: no changes since bbbbbbb"),
    ran(13, 'org submit -m "d"'),
  ];
  const rows = [row("aaaaaaa", "a", 20, "2026-x-a-1-aaaaaaa"), row("bbbbbbb", "b", 8), row("eeeeeee", "e", 30)];
  const traces = splitExperiments(events, rows, (unmatched) => `why ${unmatched.commit.slice(0, 7)}`);

  it("by id, by the message of a submit whose output is missing, a refused submit, a submit not yet judged, " +
    "a row unexplained", () => {
    const seen = traces.map((trace) =>
      [trace.result?.commit.slice(0, 7), trace.submit?.message, trace.expected, trace.unknown]);
    expect(seen).toEqual([
      ["aaaaaaa", "a", "trying a", undefined],
      ["bbbbbbb", "b", "b should win", undefined],
      [undefined, "c", "b lost; c next", undefined],
      [undefined, "d", undefined, undefined],
      ["eeeeeee", undefined, undefined, "why eeeeeee"],
    ]);
  });

  it("each experiment's commands since the one before, and what came after its verdict", () => {
    expect(traces[1]!.commands).toEqual(["python train.py", 'org submit -m "b"']);
    expect(traces[1]!.next).toEqual({ said: "b lost; c next", commands: ["git diff"] });
    expect(traces[0]!.submit).toMatchObject({
      commit: "aaaaaaa",
      id: "2026-x-a-1-aaaaaaa",
      printed: expect.stringContaining("queued"),
    });
    expect(traces[2]!.submit?.printed).toBe("nothing to submit: no changes since bbbbbbb");
  });
});

describe("--since and --grep", () => {
  it("a duration back from now, a time, or why not", () => {
    expect(parseSince("2h", 10_000_000)).toEqual({ at: 10_000_000 - 7_200_000 });
    expect(parseSince("1.5d", 200_000_000)).toEqual({ at: 200_000_000 - 129_600_000 });
    expect(parseSince("2026-12-05T04:00Z", 0)).toEqual({ at: Date.parse("2026-12-05T04:00Z") });
    expect(parseSince("2 hours", 0)).toEqual({
      error: expect.stringContaining('--since "2 hours" is neither a duration nor a time'),
    });
    expect(compileGrep("a|b")).toEqual({ pattern: /a|b/ });
    expect(compileGrep("[")).toEqual({ error: expect.stringContaining('--grep "[" is not a regular expression') });
  });
});

describe("a queued (--no-wait) experiment", () => {
  const VERDICT = "verdict discard for aaaaaaa \"a\" (`org wait 2026-x-a-1-aaaaaaa` prints it again)\nmetric 2";
  it("its verdict is where the agent read it later (org inbox, org wait), and next is what followed that", () => {
    const events = [
      said(1, "a should help"),
      ran(2, 'org submit --no-wait -m "a"'),
      got(3, 'queued aaaaaaa "a" as 2026-x-a-1-aaaaaaa'),
      said(4, "meanwhile b"),
      ran(5, 'org submit --no-wait -m "b"'),
      got(6, 'queued bbbbbbb "b" as 2026-x-a-1.(-bbbbbbb'),
      { kind: "user" as const, at: 7, text: "[org] 1 from verifier (verdict): run `org inbox`" }, ran(8, "org inbox"),
      got(9, `from verifier\n## ${VERDICT}`),
      said(10, "a lost; dropping it"),
      ran(11, "git revert HEAD"),
      ran(12, "org wait 2026-x-a-1.(-bbbbbbb"),
      got(13, "metric 0.5 · keep"),
      said(14, "b won"),
    ];
    const traces = splitExperiments(events, [row("aaaaaaa", "a", 8), row("bbbbbbb", "b", 12)], () => "never");
    expect(traces[0]!.submit?.seen).toBe(VERDICT);
    expect(traces[0]!.next).toEqual({
      said: "a lost; dropping it",
      commands: ["git revert HEAD", "org wait 2026-x-a-1.(-bbbbbbb"],
    });
    expect(traces[1]!.submit?.seen).toBe("metric 0.5 · keep");
    expect(traces[1]!.next).toEqual({ said: "b won", commands: [] });
  });
});
