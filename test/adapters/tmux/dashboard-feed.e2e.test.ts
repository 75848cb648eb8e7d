import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { Tmux } from "../../../src/adapters/tmux/tmux.js";
import { processRunner } from "../../../src/adapters/process.js";
import type { PaneFeed } from "../../../src/domain/ports.js";
import { pollUntil } from "../../helpers/poll.js";
import { tmux } from "../../helpers/test-org/index.js";

// A socket per test: a server still exiting from the last test must not meet the next one's client.
let socket = "";
let count = 0;
let feed: PaneFeed | undefined;
beforeEach(() => {
  socket = `org-feed-test-${process.pid}-${count++}`;
});
afterEach(() => {
  feed?.close();
  feed = undefined;
  for (const server of [socket, `${socket}-outer`]) {
    tmux(server, ["kill-server"]);
    rmSync(join(process.env.TMUX_TMPDIR || "/tmp", `tmux-${process.getuid?.() ?? 0}`, server), { force: true });
  }
});

function startGrid(): string[] {
  execFileSync("tmux", [
    "-L",
    socket,
    "-f",
    "/dev/null",
    "new-session",
    "-d",
    "-s",
    "grid",
    "-x",
    "100",
    "-y",
    "30",
    "printf 'first pane\\n%%end 1 2 1\\nquote '\"'\"' tab\\t{x}\\n'; exec sleep 600",
    ";",
    "split-window",
    "-t",
    "grid",
    "printf 'second pane\\n'; exec sleep 600",
    ";",
    "set-option",
    "-p",
    "@org_agent",
    "second",
  ]);
  return tmux(socket, ["list-panes", "-s", "-t", "grid", "-F", "#{pane_id}"]).out.trim().split("\n");
}

describe("the dashboard's pane feed (tmux control mode)", () => {
  test("one command line to one standing client: every pane listed " +
    "with its options and the text of the panes asked for", async () => {
    const [first, second] = startGrid();
    feed = new Tmux(processRunner, socket, "grid").openPaneFeed();
    const capture = await pollUntil(async () => {
      const result = await feed!.capture([first!, second!]);
      // Each pane's printf may land after the other's: wait for both texts, not the second alone.
      const drawn = result.screens.get(first!)?.includes("tab") && result.screens.get(second!)?.includes("second pane");
      return drawn ? result : undefined;
    }, { what: "both panes captured" });
    expect(capture.panes.map((pane) => [pane.id, pane.dead, pane.options["@org_agent"] ?? null])).toEqual([
      [first, false, null],
      [second, false, "second"],
    ]);
    // A line that looks like the protocol's own end marker is pane text, not the end of the reply.
    expect(capture.screens.get(first!)!.split("\n").slice(0, 3)).toEqual([
      "first pane",
      "%end 1 2 1",
      "quote ' tab     {x}",
    ]);
    const clients = () =>
      tmux(socket, ["list-clients", "-F", "#{client_pid} #{client_control_mode} #{client_flags}"]).out.trim();
    const client = clients();
    expect(client).toMatch(/^\d+ 1 .*ignore-size,no-output/);
    await feed.capture([second!]);
    expect(clients()).toBe(client);
  });

  test("a pane gone since it was listed ends the captures there; the listing is still fresh", async () => {
    const [first, second] = startGrid();
    feed = new Tmux(processRunner, socket, "grid").openPaneFeed();
    tmux(socket, ["kill-pane", "-t", first!]);
    const capture = await feed.capture([first!, second!]);
    expect(capture.panes.map((pane) => pane.id)).toEqual([second]);
    expect(capture.screens.size).toBe(0);
    expect((await feed.capture([second!])).screens.get(second!)).toContain("second pane");
  });

  test("a capture counts the terminals attached (people), not the control-mode clients (programs)", async () => {
    startGrid();
    feed = new Tmux(processRunner, socket, "grid").openPaneFeed();
    expect((await feed.capture([])).people).toBe(0);
    // A person's terminal, played by a pane of another tmux server.
    execFileSync("tmux", [
      "-L",
      `${socket}-outer`,
      "-f",
      "/dev/null",
      "new-session",
      "-d",
      "-x",
      "100",
      "-y",
      "30",
      "env",
      "-u",
      "TMUX",
      "tmux",
      "-L",
      socket,
      "attach",
      "-t",
      "grid",
    ]);
    await pollUntil(async () => (await feed!.capture([])).people === 1, { what: "one person counted" });
    expect(tmux(socket, ["list-clients", "-F", "#{client_control_mode}"]).out.trim().split("\n").sort()).toEqual([
      "0",
      "1",
    ]);
  });

  test("a pane's program that ends wakes the pane host's wait long before " +
    "its period; the look sees it dead with its real signal", async () => {
    const [, second] = startGrid();
    tmux(socket, ["set-option", "-g", "remain-on-exit", "on"]);
    const pid = Number(
      tmux(socket, ["split-window", "-P", "-F", "#{pane_pid}", "-t", "grid", "exec sleep 600"]).out.trim(),
    );
    tmux(socket, ["set-option", "-p", "@org_agent", "brief"]);
    const host = new Tmux(processRunner, socket, "grid").openPaneHost();
    try {
      expect((await host.listAgentPanes())?.map((pane) => [pane.agent, pane.dead])).toEqual([
        ["second", false],
        ["brief", false],
      ]);
      // Ended between the first look and the first wait: the hooks set with that look still tell the wait.
      process.kill(pid, "SIGTERM");
      // Under load tmux 3.3 can miss the SIGCHLD and leave the program a zombie: a look then makes it reap.
      const panes = await pollUntil(async () => {
        const listed = await host.listAgentPanes();
        return listed?.find((pane) => pane.agent === "brief")?.dead ? listed : undefined;
      }, { what: "the brief pane dead" });
      expect(panes.find((pane) => pane.agent === "brief")).toMatchObject({ exitSignal: "SIGTERM", exitCode: null });
      const started = Date.now();
      await host.waitForChange!(60_000);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(panes.find((pane) => pane.id === second)?.dead).toBe(false);
      // Closed, the host's wait returns at once and leaves no client behind.
      host.close();
      await host.waitForChange!(60_000);
      await pollUntil(() => tmux(socket, ["list-clients"]).out.trim() === "", { what: "no client left" });
    } finally {
      host.close();
    }
  });

  test("no server: nothing captured, and no server started to find that out", async () => {
    feed = new Tmux(processRunner, socket, "grid").openPaneFeed();
    expect(await feed.capture(["%1"])).toEqual({ panes: [], screens: new Map() });
    expect(tmux(socket, ["list-sessions"]).code).not.toBe(0);
  });
});
