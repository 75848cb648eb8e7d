import { describe, expect, test } from "vitest";
import { decideWatch, type WatchInput } from "../../../src/domain/screens/decide-watch.js";

describe("watch decisions", () => {
  const settings = { nudge: "keep going", nudgeAfterMs: 600_000, nudgesPerHour: 2, answerTrust: false };
  const now = Date.parse("2026-11-29T16:30:00Z");
  const base: WatchInput = {
    screen: { kind: "idle", reason: "prompt" }, alive: true, unchangedMs: 0, now,
    memory: { nudges: [], trustAnswers: [], waitUntil: null }, settings, fix: "THE FIX",
  };

  test("idle and unchanged long enough → nudge, capped per hour", () => {
    expect(decideWatch(base)).toEqual({ kind: "none", reason: "idle, not yet for long" });
    expect(decideWatch({ ...base, unchangedMs: 600_000 })).toEqual({
      kind: "nudge", text: "keep going", reason: "idle with an unchanged screen for 600s",
    });
    const capped = { ...base, unchangedMs: 600_000, memory: { ...base.memory, nudges: [now - 60_000, now - 120_000] } };
    expect(decideWatch(capped)).toEqual({ kind: "none", reason: "idle; 2 nudges this hour already" });
    const old = { ...capped, memory: { ...capped.memory, nudges: [now - 3_700_000, now - 60_000] } };
    expect(decideWatch(old).kind).toBe("nudge");
  });

  test("a trust dialog is answered only when the org allows it", () => {
    const trust = { ...base, screen: { kind: "trust-dialog" as const, reason: "dialog", keys: ["Enter"] } };
    expect(decideWatch(trust)).toEqual({ kind: "block", fix: "THE FIX", reason: "dialog; answer_trust is off" });
    const allowed = { ...trust, settings: { ...settings, answerTrust: true } };
    expect(decideWatch(allowed)).toEqual({ kind: "answer-trust", keys: ["Enter"], reason: "dialog" });
    expect(decideWatch({ ...allowed, memory: { ...base.memory, trustAnswers: [now - 2000] } }).kind).toBe("none");
    expect(decideWatch({
      ...allowed, memory: { ...base.memory, trustAnswers: [now - 900_000, now - 600_000, now - 300_000] },
    })).toMatchObject({ kind: "block", reason: "dialog; still there after 3 answers" });
  });

  test("a usage limit waits until its reset, then resumes with one nudge; no reset shown waits an hour", () => {
    const limit = { ...base, screen: { kind: "usage-limit" as const, reason: "limit", resetText: "5pm (UTC)" } };
    expect(decideWatch(limit)).toEqual({
      kind: "wait", until: Date.parse("2026-11-29T17:00:00Z"), reason: "usage limit: resets 5pm (UTC)",
    });
    expect(decideWatch({ ...limit, memory: { ...base.memory, waitUntil: now - 1 } })).toEqual({
      kind: "nudge", text: "keep going", reason: "the usage limit's reset time has passed",
    });
    expect(decideWatch({ ...limit, screen: { ...limit.screen, resetText: null } })).toMatchObject({
      kind: "wait", until: now + 3_600_000,
    });
  });

  test("login required, offline and a refused flag block with the fix, alive or dead", () => {
    for (const screen of [
      { kind: "login-required", reason: "r" },
      { kind: "offline", reason: "r" },
      { kind: "refused", reason: "r", refusal: "root" },
    ] as const) {
      expect(decideWatch({ ...base, screen })).toEqual({ kind: "block", fix: "THE FIX", reason: "r" });
      expect(decideWatch({ ...base, alive: false, screen }).kind).toBe("block");
    }
  });

  test("a service error blocks at once, and is nudged to try again once unchanged for "
    + "nudge_after, within the hourly budget", () => {
    const failing = { ...base, screen: { kind: "service-error" as const, reason: "r" } };
    expect(decideWatch(failing)).toEqual({ kind: "block", fix: "THE FIX", reason: "r" });
    expect(decideWatch({ ...failing, unchangedMs: 600_000 })).toEqual({
      kind: "nudge", text: "keep going", reason: "r, unchanged for 600s: nudged to try the service again",
    });
    expect(decideWatch({
      ...failing, unchangedMs: 600_000, memory: { ...base.memory, nudges: [now - 60_000, now - 120_000] },
    })).toEqual({ kind: "block", fix: "THE FIX", reason: "r" });
    expect(decideWatch({ ...failing, unchangedMs: 600_000, alive: false })).toEqual({
      kind: "block", fix: "THE FIX", reason: "r",
    });
  });

  test("garbage, a shell, exit 127 or a dead agent: nothing is ever typed", () => {
    const typing = new Set(["nudge", "answer-trust"]);
    const screens = [
      { kind: "unknown" as const, reason: "garbage" },
      { kind: "shell" as const, reason: "shell" },
      { kind: "working" as const, reason: "w" },
    ];
    for (const screen of screens) expect(typing.has(decideWatch({ ...base, unchangedMs: 9e9, screen }).kind))
      .toBe(false);
    const idleButDead = { ...base, alive: false, unchangedMs: 9e9 };
    expect(decideWatch(idleButDead)).toEqual({
      kind: "none", reason: "the program is not running (prompt): nothing is typed",
    });
    const trustButDead = {
      ...idleButDead, screen: { kind: "trust-dialog" as const, reason: "d", keys: ["Enter"] },
      settings: { ...settings, answerTrust: true },
    };
    expect(decideWatch(trustButDead).kind).toBe("none");
  });
});
