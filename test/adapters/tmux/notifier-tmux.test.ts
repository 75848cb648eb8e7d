import { describe, expect, test } from "vitest";
import { openTmuxNoticePort } from "../../../src/adapters/tmux/notice-client.js";
import type { ControlReply, TmuxControl } from "../../../src/adapters/tmux/control.js";

// A control client that answers each command line from `answer`, recording what was sent.
function fakeControl(answer: (commands: string[][]) => ControlReply): { control: TmuxControl; sent: string[][][] } {
  const sent: string[][][] = [];
  const control = {
    run: async (commands: string[][]) => (sent.push(commands), answer(commands)),
    close: () => undefined,
  } as unknown as TmuxControl;
  return { control, sent };
}

describe("openTmuxNoticePort", () => {
  test("lists agent panes, skipping panes of no agent", async () => {
    const { control, sent } = fakeControl(() => ({ blocks: ["%1 a-1\n%2 \n%3 b-1\n"] }));
    const port = openTmuxNoticePort(control, "org-x");
    expect(await port.listAgentPanes()).toEqual(new Map([["a-1", "%1"], ["b-1", "%3"]]));
    expect(sent[0]).toEqual([["list-panes", "-s", "-t", "=org-x", "-F", "#{pane_id} #{@org_agent}"]]);
  });

  test("a look carries position and screen; a pane answering as another gives no look", async () => {
    const mark = "\x1forg-pane";
    const { control } = fakeControl(() => ({ blocks: [`${mark} %1 0 10,2,3 a-1\n`, "line one\n\nline three\n"] }));
    const port = openTmuxNoticePort(control, "org-x");
    expect(await port.look(["%1"])).toEqual(
      new Map([["%1", { text: "10,2,3\nline one\n\nline three", dead: false, agent: "a-1" }]]),
    );
    expect(await port.look(["%2"])).toBeUndefined();
    expect(await port.look([])).toEqual(new Map());
  });

  test("typing fails when tmux errs or is unreachable", async () => {
    let reply: ControlReply = { blocks: ["", ""] };
    const { control, sent } = fakeControl(() => reply);
    const port = openTmuxNoticePort(control, "org-x");
    expect(await port.paste("%1", "[org] 1 new message", "org-notify-a-1")).toBe(true);
    expect(sent[0]).toEqual([
      ["set-buffer", "-b", "org-notify-a-1", "--", "[org] 1 new message"],
      ["paste-buffer", "-d", "-p", "-b", "org-notify-a-1", "-t", "%1"],
    ]);
    reply = { blocks: [], error: "can't find pane: %1" };
    expect(await port.pressEnter("%1")).toBe(false);
    reply = undefined;
    expect(await port.paste("%1", "x", "b")).toBe(false);
  });
});
