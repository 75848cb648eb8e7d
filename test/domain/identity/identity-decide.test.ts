import { describe, expect, test } from "vitest";
import { decideCaller } from "../../../src/domain/identity/decide-caller.js";
import { findPaneOwner } from "../../../src/domain/identity/pane-owner.js";

const roster = [{ name: "r-1", role: "r" }, { name: "r-2", role: "r" }, { name: "chief-1", role: "chief" }];

describe("who a command acts as", () => {
  test("inside a pane the pane decides: ORG_AGENT may only repeat it", () => {
    expect(decideCaller(roster, "r-1", undefined)).toMatchObject({ kind: "agent", agent: "r-1", role: "r" });
    expect(decideCaller(roster, "r-1", "r-1")).toMatchObject({ kind: "agent", agent: "r-1", role: "r" });
    expect(decideCaller(roster, "r-1", "r-2")).toEqual({
      kind: "refused",
      reason: "you are r-1 (this pane's agent); ORG_AGENT=r-2 names another agent — unset it",
    });
    expect(decideCaller(roster, "r-1", "../x\n")).toEqual({
      kind: "refused",
      reason: `you are r-1 (this pane's agent); ORG_AGENT="../x\\n" names another agent — unset it`,
    });
    expect(decideCaller(roster, "gone-1", undefined)).toMatchObject({
      kind: "refused",
      reason: expect.stringContaining("you are gone-1 (this pane's agent), which org.yaml no longer lists"),
    });
  });

  test("outside every pane ORG_AGENT names whom the person acts as; unset, the person", () => {
    expect(decideCaller(roster, undefined, undefined)).toMatchObject({ kind: "person" });
    expect(decideCaller(roster, undefined, "chief-1")).toMatchObject({
      kind: "agent",
      agent: "chief-1",
      role: "chief",
    });
    expect(decideCaller(roster, undefined, "junior-9")).toEqual({
      kind: "refused",
      reason: '$ORG_AGENT is "junior-9", which is not an agent of this org — unset ORG_AGENT to act as a person',
    });
  });
});

describe("the pane a process runs in", () => {
  const started = Date.parse("2026-01-01T10:00:00Z");
  const roots = [
    { agent: "r-1", pid: 40, startedAt: "2026-01-01T10:00:00.000Z" },
    { agent: "r-2", pid: 50, startedAt: "2026-01-01T10:00:00.000Z" },
  ];

  test("the nearest ancestor that is a pane root names the agent", () => {
    expect(findPaneOwner(
      [{ pid: 99, startedMs: started }, { pid: 50, startedMs: started - 5000 }, { pid: 40, startedMs: started - 9000 }],
      roots,
    )).toBe("r-2");
    expect(findPaneOwner([{ pid: 99, startedMs: started }, { pid: 7, startedMs: null }], roots)).toBeUndefined();
  });

  test("a process started after the pane was recorded reuses a dead agent's pid: it is no pane", () => {
    expect(findPaneOwner([{ pid: 40, startedMs: started + 60_000 }], roots)).toBeUndefined();
    expect(findPaneOwner([{ pid: 40, startedMs: started + 1500 }], roots)).toBe("r-1");
    expect(findPaneOwner([{ pid: 40, startedMs: null }], roots)).toBe("r-1");
  });
});
