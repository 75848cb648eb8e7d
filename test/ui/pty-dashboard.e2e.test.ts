import { existsSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { PtyHost } from "../../src/adapters/pty/host.js";
import {
  computeFocusLayout, focusTerminalSize, renderFocusFooter, renderFocusScreen, splitFocusInput,
} from "../../src/ui/dashboard-focus.js";
import { FOCUS_HELP_LINES, renderFooter } from "../../src/ui/dashboard-text.js";
import { bundleScript } from "../helpers/bundle-script.js";
import { pollUntil } from "../helpers/poll.js";
import { makeTempDir } from "../helpers/temp-repo.js";

describe("focus mode, pure parts", () => {
  test("Ctrl-] leaves focus: what came before it is typed, what came after is dropped", () => {
    expect(splitFocusInput("ls -l\r")).toEqual({ forward: "ls -l\r", leave: false });
    expect(splitFocusInput("\x1b[A\x03")).toEqual({ forward: "\x1b[A\x03", leave: false });
    expect(splitFocusInput("abc\x1dxyz")).toEqual({ forward: "abc", leave: true });
    expect(splitFocusInput("\x1d")).toEqual({ forward: "", leave: true });
  });

  test("the focused pane fills all but the header and footer; its terminal is the inside of the border", () => {
    const layout = computeFocusLayout(100, 30)!;
    expect(layout).toEqual({
      kind: "focus",
      header: { left: 0, top: 0, width: 100, height: 1 },
      pane: { left: 0, top: 1, width: 100, height: 28 },
      footer: { left: 0, top: 29, width: 100, height: 1 },
    });
    expect(focusTerminalSize(layout)).toEqual({ cols: 98, rows: 26 });
    expect(computeFocusLayout(40, 12)).toBeDefined();
    expect(computeFocusLayout(19, 12)).toBeUndefined();
    expect(computeFocusLayout(40, 5)).toBeUndefined();
  });

  test("the focused screen shows the cursor cell in inverse video, cut to the pane, with braces escaped", () => {
    const screen = { lines: ["$ echo {x}", "", "a line longer than the pane"], cursor: { x: 10, y: 0 } };
    expect(renderFocusScreen(screen, 12, 3)).toBe("$ echo {open}x{close}{inverse} {/inverse}\n\na line longe");
    expect(renderFocusScreen({ lines: ["ab"], cursor: { x: 0, y: 0 } }, 12, 3)).toBe("{inverse}a{/inverse}b");
    expect(renderFocusScreen({ lines: ["ab"], cursor: { x: 20, y: 0 } }, 12, 3)).toBe("ab");
    expect(renderFocusScreen({ lines: ["ab", "cd", "ef"], cursor: { x: 0, y: 2 } }, 12, 2)).toBe("ab\ncd");
  });

  test("footer and help say how to type and how to come back; they fit a 40-column terminal", () => {
    expect(renderFocusFooter("alpha", undefined, 200)).toBe("typing goes to alpha · Ctrl-] back to the dashboard");
    expect(renderFocusFooter("alpha", "alpha did not take the keys — is it running?", 200)).toBe(
      "alpha did not take the keys — is it running?",
    );
    expect(renderFooter(undefined, 200, undefined, "focus")).toBe(
      "←↑↓→ tab select · enter focus · r restart · ? help · q quit",
    );
    expect(FOCUS_HELP_LINES).toContain(" enter     type to it; Ctrl-] returns");
    for (const line of FOCUS_HELP_LINES) expect([...line].length).toBeLessThanOrEqual(38);
  });
});

let host: PtyHost | undefined;
let dir = "";
afterEach(async () => {
  await host?.close();
  host = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("org watch's focus mode in a real terminal, no tmux", () => {
  test("enter focuses the agent and sizes its terminal; keys (q included) " +
    "go to it; Ctrl-] comes back; q then quits", async () => {
    dir = makeTempDir("org-pty-dash-");
    const log = join(dir, "focus.jsonl");
    const calls = () =>
      existsSync(log)
        ? readFileSync(log, "utf8")
            .trim()
            .split("\n")
            .map((line) => JSON.parse(line) as Record<string, unknown>)
        : [];
    const fixture = await bundleScript("focus-dashboard", { file: resolve("test/fixtures/bin/focus-dashboard.mjs") });
    host = await PtyHost.create({ cols: 100, rows: 30 });
    const exits: (number | null)[] = [];
    host.onExit((pane) => exits.push(pane.exitCode));
    await host.open({
      argv: [process.execPath, fixture],
      cwd: dir,
      env: { FOCUS_LOG: log, NO_COLOR: "1" },
      options: { "@org_agent": "watch" },
    });
    const screen = () => host!.screen("watch").join("\n");
    const waitFor = (text: string) =>
      pollUntil(() => screen().includes(text), {
        what: `the dashboard to show ${JSON.stringify(text)}`,
        timeoutMs: 15_000,
      });
    await waitFor("enter focus");
    host.write("watch", "\r");
    await waitFor("typing goes to alpha");
    await pollUntil(() => calls().some((call) => call.enter), { what: "the focus port's enter" });
    expect(calls()[0]).toEqual({ enter: ["alpha", 98, 26] });
    host.write("watch", "hi q");
    await waitFor('typed: "hi q"');
    // The cursor sits after the closing quote, in inverse video.
    await pollUntil(
      () => host!.screen("watch", { attributes: true }).some((line) => line.includes('typed: "hi q"\x1b[0;7m \x1b[0m')),
      { what: "the cursor drawn" },
    );
    host.write("watch", "\x1b[A");
    await waitFor('typed: "hi q\\u001b[A"');
    host.write("watch", "\x1d");
    await waitFor("enter focus");
    await pollUntil(() => calls().some((call) => call.leave === "alpha"), { what: "the focus port's leave" });
    // Back in the dashboard, q is the dashboard's again.
    host.write("watch", "q");
    await pollUntil(() => exits.length === 1, { what: "the dashboard to quit" });
    expect(exits).toEqual([0]);
    expect(calls().map((call) => Object.keys(call)[0])).toEqual([
      "enter",
      ...calls()
        .filter((call) => call.keys)
        .map(() => "keys"),
      "leave",
      "outcome",
    ]);
    expect(calls().at(-1)).toEqual({ outcome: "quit" });
    expect(calls().filter((call) => call.keys).map((call) => (call.keys as string[])[1]).join("")).toBe("hi q\x1b[A");
  });
});
