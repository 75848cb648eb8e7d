import { describe, expect, test } from "vitest";
import { typeNotice } from "../../src/daemon/notice-typing.js";
import type { NoticePort } from "../../src/domain/ports.js";

const LINE = "[org] new message from person (note): run `org inbox`";

/**
 * A pane as a TUI draws it: the input row shows a paste once
 * `drawsPaste`, and an Enter is taken from the `takesEnterFrom`-th on.
 */
function fakePane(opts: { drawsPaste: boolean; takesEnterFrom: number }) {
  let input = "";
  let history = "";
  const keys: string[] = [];
  const io: NoticePort = {
    listAgentPanes: async () => new Map(),
    look: async () => undefined,
    paste: async (_pane, line) => {
      keys.push("paste");
      if (opts.drawsPaste) input += line;
      return true;
    },
    pressEnter: async () => {
      keys.push("Enter");
      if (keys.filter((key) => key === "Enter").length >= opts.takesEnterFrom)
        [history, input] = [`${history}\n> ${input}`, ""];
      return true;
    },
    close: () => undefined,
  };
  return { io, keys, look: async () => `${history}\n* ${input}` };
}

describe("typing a notice line, confirmed on the screen", () => {
  test("the paste shows, then one Enter takes it", async () => {
    const pane = fakePane({ drawsPaste: true, takesEnterFrom: 1 });
    expect(await typeNotice(pane.io, "%1", LINE, "b", pane.look, 400)).toEqual({ kind: "typed", presses: 1 });
    expect(pane.keys).toEqual(["paste", "Enter"]);
  });

  test("an Enter the TUI swallows is pressed once more", async () => {
    const pane = fakePane({ drawsPaste: true, takesEnterFrom: 2 });
    expect(await typeNotice(pane.io, "%1", LINE, "b", pane.look, 400)).toEqual({ kind: "typed", presses: 2 });
    expect(pane.keys).toEqual(["paste", "Enter", "Enter"]);
  });

  test("a paste that never shows (a CLI still starting) gets no Enter", async () => {
    const pane = fakePane({ drawsPaste: false, takesEnterFrom: 1 });
    expect(await typeNotice(pane.io, "%1", LINE, "b", pane.look, 300)).toEqual({
      kind: "not-taken",
      reason: "the pasted line never showed on its screen",
    });
    expect(pane.keys).toEqual(["paste"]);
  });

  test("a screen that stays as it was after two Enters is not taken", async () => {
    const pane = fakePane({ drawsPaste: true, takesEnterFrom: 9 });
    expect(await typeNotice(pane.io, "%1", LINE, "b", pane.look, 300)).toEqual({
      kind: "not-taken",
      reason: "the screen did not change after Enter, twice",
    });
  });

  test("a retry after a first paste left unsent presses Enter only: the line is never sent twice", async () => {
    const pane = fakePane({ drawsPaste: true, takesEnterFrom: 3 });
    const before = 0;
    expect(await typeNotice(pane.io, "%1", LINE, "b", pane.look, 300, before)).toEqual({
      kind: "not-taken",
      reason: "the screen did not change after Enter, twice",
    });
    expect(await typeNotice(pane.io, "%1", LINE, "b", pane.look, 300, before)).toEqual({ kind: "typed", presses: 1 });
    expect(pane.keys).toEqual(["paste", "Enter", "Enter", "Enter"]);
    expect(await pane.look()).toBe(`\n> ${LINE}\n* `);
  });
});
