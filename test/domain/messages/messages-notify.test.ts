import { describe, expect, test } from "vitest";
import {
  checkAlive, chooseFullLookMs, countNoticeLines, decideNotice, formatNotice, type PaneLook,
} from "../../../src/domain/messages/notify.js";
import type { AgentStatus } from "../../../src/domain/state.js";

const status: AgentStatus = {
  agent: "junior-1", state: "running", pid: 11, startedAt: "2026-01-07T10:00:00.000Z", restarts: 0,
  consecutiveFailures: 0, lastExit: null, reason: "running forever", updatedAt: "2026-01-07T10:00:00.000Z",
};
const pending = [{ id: "a", from: "chief-1", kind: "task", sentAt: 9_000, seenAt: 9_000 }];
const still: PaneLook = { text: "$ ", changedAt: 8_000, dead: false, agent: "junior-1" };
const decide = (overrides: Partial<Parameters<typeof decideNotice>[0]>) =>
  decideNotice({
    agent: "junior-1", live: { alive: true, reason: "running" }, look: still, pending, now: 10_000, idleMs: 1000,
    busyTimeoutMs: 60_000, ...overrides,
  });

describe("when a notification is typed", () => {
  test("alive and still for the idle time: type one line naming the sender and kind", () => {
    expect(decide({})).toEqual({ kind: "type", line: "[org] new message from chief-1 (task): run `org inbox`" });
  });

  test("a dead program, a dead pane, a missing status: skipped, never typed", () => {
    expect(decide({ live: { alive: false, reason: "its program has exited" } })).toEqual({
      kind: "skip",
      outcome: "skipped-dead",
      reason: "its program has exited",
    });
    expect(decide({ look: { ...still, dead: true } })).toEqual({
      kind: "skip",
      outcome: "skipped-dead",
      reason: "its pane is dead",
    });
  });

  test("a pane that changed within the idle time waits; past the busy timeout it is given up", () => {
    expect(decide({ look: { ...still, changedAt: 9_500 } })).toEqual({ kind: "wait", reason: "the pane is busy" });
    expect(decide({ look: { ...still, changedAt: 69_500 }, now: 70_000 })).toEqual({
      kind: "skip",
      outcome: "skipped-busy",
      reason: "the pane stayed busy for 61s",
    });
  });

  test("a known CLI still for the idle time but not at its prompt (starting, in a dialog) waits; "
    + "past the busy timeout it is given up with why", () => {
    const starting = { ready: false, reason: 'no known screen; last line "Welcome"' };
    expect(decide({ screen: starting })).toEqual({
      kind: "wait",
      reason: 'not at its prompt: no known screen; last line "Welcome"',
    });
    expect(decide({ screen: starting, now: 70_000 })).toEqual({
      kind: "skip",
      outcome: "skipped-busy",
      reason: 'not at its prompt for 61s: no known screen; last line "Welcome"',
    });
    expect(decide({ screen: { ready: true, reason: 'screen shows "? for shortcuts"' } })).toMatchObject({
      kind: "type",
    });
  });

  test("a notice line is counted on a screen however it wraps or sits in a box", () => {
    const line = "[org] new message from person (note): run `org inbox`";
    expect(countNoticeLines("│ * [org] new message from person │\n│ (note): run `org inbox`        │", line)).toBe(1);
    expect(countNoticeLines(`> ${line}\n* ${line}`, line)).toBe(2);
    expect(countNoticeLines("* Type your message", line)).toBe(0);
  });

  test("a pane labelled for another agent is never typed into", () => {
    expect(decide({ look: { ...still, agent: "junior-2" } })).toEqual({
      kind: "wait",
      reason: 'its pane is labelled "junior-2"',
    });
    expect(decide({ look: undefined })).toEqual({ kind: "wait", reason: "no look at the pane yet" });
  });

  test("several messages make one line", () => {
    expect(formatNotice([...pending, { from: "person", kind: "note" }])).toBe(
      "[org] 2 new messages, the latest from person (note): run `org inbox`",
    );
  });

  test("alive means: the supervisor says running and the program's pid exists", () => {
    expect(checkAlive(status, () => true)).toEqual({ alive: true, reason: "running" });
    expect(checkAlive(status, () => false)).toEqual({ alive: false, reason: "its program has exited" });
    const reason = "exited with code 1; restart 1/10 in 1s";
    const restarting = { ...status, state: "restarting" as const, pid: null, reason };
    expect(checkAlive(restarting, () => true))
      .toEqual({ alive: false, reason: "its program is restarting: exited with code 1; restart 1/10 in 1s" });
    expect(checkAlive(undefined, () => true)).toEqual({ alive: false, reason: "it has no status.json yet" });
  });
});

test("the look at every pane comes twice as late each time none changed, up to the cap, "
  + "and at the base once one did", () => {
  const waits = [30_000];
  for (let look = 0; look < 5; look++) waits.push(chooseFullLookMs(waits.at(-1)!, false, 30_000, 240_000));
  expect(waits).toEqual([30_000, 60_000, 120_000, 240_000, 240_000, 240_000]);
  expect(chooseFullLookMs(240_000, true, 30_000, 240_000)).toBe(30_000);
});
