import { describe, expect, test } from "vitest";
import type { RestartDecision } from "../../src/domain/views/dashboard-restart.js";
import { handleKey, INITIAL_VIEW, type KeyContext } from "../../src/ui/dashboard-keys.js";

describe("handleKey", () => {
  const signal: RestartDecision = { kind: "signal", agent: "researcher-2", pid: 7, reason: "SIGTERM to researcher-2" };
  const context = (overrides: Partial<KeyContext> = {}): KeyContext => ({
    count: 4,
    columns: 2,
    decideRestart: () => signal,
    hasPane: () => true,
    ...overrides,
  });

  test("arrows, tab and vi keys move the selection", () => {
    let state = INITIAL_VIEW;
    for (const [key, expected] of [["right", 1], ["down", 3], ["tab", 0], ["S-tab", 3], ["k", 1], ["h", 0]] as const) {
      state = handleKey(state, key, context()).state;
      expect(state.selected, key).toBe(expected);
    }
  });

  test("? opens help, any key but q closes it; q and C-c quit from anywhere", () => {
    const open = handleKey(INITIAL_VIEW, "?", context()).state;
    expect(open.help).toBe(true);
    expect(handleKey(open, "escape", context()).state.help).toBe(false);
    expect(handleKey(open, "q", context()).effect).toEqual({ kind: "quit" });
    expect(handleKey(INITIAL_VIEW, "C-c", context()).effect).toEqual({ kind: "quit" });
  });

  test("enter attaches to the selected agent, unless it has no pane", () => {
    const state = { ...INITIAL_VIEW, selected: 2 };
    expect(handleKey(state, "enter", context()).effect).toEqual({ kind: "attach", agent: 2 });
    const refused = handleKey(state, "enter", context({ hasPane: () => false }));
    expect(refused.effect).toEqual({ kind: "none" });
    expect(refused.state.message).toBe("this agent has no pane to attach to — is the org up?");
  });

  test("r asks first: y restarts, any other key cancels; a refusal says why", () => {
    const asked = handleKey(INITIAL_VIEW, "r", context());
    expect(asked.effect).toEqual({ kind: "none" });
    expect(asked.state.message).toBe("restart? SIGTERM to researcher-2 — y confirms, any other key cancels");
    expect(handleKey(asked.state, "y", context()).effect).toEqual({ kind: "restart", decision: signal });
    const cancelled = handleKey(asked.state, "n", context());
    expect(cancelled.effect).toEqual({ kind: "none" });
    expect(cancelled.state).toEqual({ ...INITIAL_VIEW, message: "restart cancelled" });
    const refused = handleKey(
      INITIAL_VIEW,
      "r",
      context({ decideRestart: () => ({ kind: "refuse", agent: "a", reason: "the org is down" }) }),
    );
    expect(refused.state.message).toBe("cannot restart: the org is down");
    expect(refused.state.confirm).toBeNull();
  });

  test("with no agents, enter and r do nothing", () => {
    expect(handleKey(INITIAL_VIEW, "enter", context({ count: 0 })).effect).toEqual({ kind: "none" });
    expect(handleKey(INITIAL_VIEW, "r", context({ count: 0 })).state.confirm).toBeNull();
  });
});
