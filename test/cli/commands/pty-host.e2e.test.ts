import { readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { PtyHost, type PtyPane } from "../../../src/adapters/pty/host.js";
import type { PaneLaunch } from "../../../src/domain/ports.js";
import { pollUntil } from "../../helpers/poll.js";
import { isRunning } from "../../helpers/processes.js";
import { makeTempDir } from "../../helpers/temp-repo.js";

const BIN = resolve("test/fixtures/bin");
let host: PtyHost | undefined;
let dir = "";

afterEach(async () => {
  await host?.close();
  host = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function startHost(opts: { killGraceMs?: number } = {}): Promise<PtyHost> {
  dir = makeTempDir("org-pty-host-");
  host = await PtyHost.create({ cols: 80, rows: 12, ...opts });
  return host;
}

const spec = (argv: string[], env: Record<string, string> = {}): PaneLaunch => ({ argv, cwd: dir, env });
/** A pane labelled with the agent, logging where `org up` puts an agent's pane.log. */
const openAgent = (agent: string, argv: string[], env: Record<string, string> = {}) =>
  host!.open({
    ...spec(argv, env),
    options: { "@org_agent": agent, "@org_status": "starting" },
    logFile: join(dir, "agents", agent, "pane.log"),
  });
const screenOf = (agent: string) => host!.screen(agent).join("\n");
const waitForScreen = (agent: string, text: string) =>
  pollUntil(() => screenOf(agent).includes(text), { what: `${agent}'s screen to show ${JSON.stringify(text)}` });

describe("PtyHost: agents in node-pty, read through @xterm/headless", () => {
  test("a program gets argv, cwd, its env on top of ours and a colour terminal; " +
    "its screen and pane.log show its output", async () => {
    await startHost();
    await openAgent("researcher-1", [join(BIN, "print-env-sleep")], {
      ORG_AGENT: "researcher-1",
      CUDA_VISIBLE_DEVICES: "3",
    });
    await waitForScreen("researcher-1", "cwd=");
    const screen = host!.screen("researcher-1");
    expect(screen).toContain("ORG_AGENT=researcher-1");
    expect(screen).toContain("CUDA_VISIBLE_DEVICES=3");
    expect(screen).toContain(`cwd=${dir}`);
    expect(screen).toHaveLength(12);
    const [pane] = await host!.listAgentPanes();
    expect(pane).toMatchObject({
      agent: "researcher-1",
      id: "%0",
      dead: false,
      exitCode: null,
      exitSignal: null,
      exitedAt: null,
      status: "starting",
      cols: 80,
      rows: 12,
    });
    expect(isRunning(pane!.pid)).toBe(true);
    // Raw bytes, CRLF as the pty wrote them.
    await pollUntil(
      () => readFileSync(join(dir, "agents", "researcher-1", "pane.log"), "utf8").includes(`cwd=${dir}\r\n`),
      { what: "pane.log" },
    );
  });

  test("typed keys reach the program; its exit code is reported to listeners and in the listing", async () => {
    await startHost();
    const exits: PtyPane[] = [];
    host!.onExit((pane) => exits.push(pane));
    await openAgent("typist", [join(BIN, "echo-line")]);
    await waitForScreen("typist", "ready");
    host!.write("typist", "hello pty\r");
    await waitForScreen("typist", "got: hello pty");
    const before = Date.now();
    host!.write("typist", "exit 3\r");
    await pollUntil(() => exits.length === 1, { what: "the exit" });
    expect(exits[0]).toMatchObject({ agent: "typist", dead: true, exitCode: 3, exitSignal: null });
    expect(exits[0]!.exitedAt).toBeGreaterThanOrEqual(before);
    expect((await host!.listAgentPanes())[0]).toMatchObject({ dead: true, exitCode: 3 });
    expect(() => host!.write("typist", "x")).toThrow("typist is not running (exit 3) — restart it first");
  });

  test("resize reaches the emulator and the program's terminal", async () => {
    await startHost();
    await openAgent("typist", [join(BIN, "echo-line")]);
    await waitForScreen("typist", "ready");
    host!.resize("typist", 100, 30);
    host!.write("typist", "size\r");
    await waitForScreen("typist", "30 100");
    expect(host!.screen("typist")).toHaveLength(30);
    expect((await host!.listAgentPanes())[0]).toMatchObject({ cols: 100, rows: 30 });
  });

  test("colours come back as SGR escapes when asked, plain text otherwise", async () => {
    await startHost();
    await openAgent("painter", [
      "sh",
      "-c",
      "printf '\\033[1;31mred\\033[0m plain \\033[38;5;200mpink\\033[0m\\n'; exec sleep 60",
    ]);
    await waitForScreen("painter", "pink");
    expect(host!.screen("painter")[0]).toBe("red plain pink");
    expect(host!.screen("painter", { attributes: true })[0]).toBe(
      "\x1b[0;1;31mred\x1b[0m plain \x1b[0;38;5;200mpink\x1b[0m",
    );
  });

  test("respawn kills the running program and starts the same spec again, " +
    "or a new one, in the same pane; the exit is a signal", async () => {
    await startHost();
    const exits: PtyPane[] = [];
    host!.onExit((pane) => exits.push(pane));
    const id = await openAgent("worker", [join(BIN, "forever")]);
    const [before] = await host!.listAgentPanes();
    await host!.setStatus("worker", "running");
    await host!.respawn("worker");
    const [after] = await host!.listAgentPanes();
    expect(after!.pid).not.toBe(before!.pid);
    expect(after).toMatchObject({ id, dead: false, status: "running" });
    // The respawn does not wait for a slow reap under load: the old program's end and its exit come soon after.
    await pollUntil(() => !isRunning(before!.pid), { what: "the old program gone" });
    await pollUntil(() => exits.length >= 1, { what: "the first exit reported" });
    expect(exits).toEqual([expect.objectContaining({ pid: before!.pid, exitSignal: "SIGTERM", exitCode: null })]);
    // Two respawns at once run one after the other: one program is left, the second one's.
    await Promise.all([
      host!.respawn(id, spec([join(BIN, "forever")])),
      host!.respawn(id, spec([join(BIN, "echo-line")])),
    ]);
    await waitForScreen("worker", "ready");
    const [last] = await host!.listPanes();
    expect(last).toMatchObject({ id, dead: false });
    // Under load a reap can come after the respawn that no longer waits for it: the exit is still reported.
    await pollUntil(() => exits.length >= 3, { what: "the third exit reported" });
    expect(exits.map((exit) => exit.exitSignal)).toEqual(["SIGTERM", "SIGTERM", "SIGTERM"]);
  });

  test("a respawned program gets a fresh terminal's modes: " +
    "the dead one's bracketed paste no longer wraps a paste", async () => {
    await startHost();
    const id = await openAgent("worker", [join(BIN, "paste-probe")]);
    await waitForScreen("worker", "ready");
    host!.paste(id, "one");
    await waitForScreen("worker", 'read: "\\u001b[200~one\\u001b[201~"');
    // cat shows control characters as ^[: markers it was never asked for would show up in its echo.
    await host!.respawn(id, spec(["sh", "-c", "stty raw -echo; echo ready-2; exec cat -v"]));
    await waitForScreen("worker", "ready-2");
    host!.paste(id, "two");
    await waitForScreen("worker", "two");
    expect(screenOf("worker")).not.toContain("^[[200~");
  });

  test("a pane with no agent label (the daemon's) is listed but is not an agent pane", async () => {
    await startHost();
    await host!.open({ ...spec([join(BIN, "forever")]), options: {} });
    const agent = await openAgent("worker", [join(BIN, "forever")]);
    expect((await host!.listPanes()).map((pane) => [pane.id, pane.agent])).toEqual([["%0", ""], [agent, "worker"]]);
    expect((await host!.listAgentPanes()).map((pane) => pane.id)).toEqual([agent]);
    host!.setOptions("%0", { "@org_role": "daemon" });
    expect((await host!.listPanes())[0]!.options).toEqual({ "@org_role": "daemon" });
    await host!.remove("%0");
    expect((await host!.listPanes()).map((pane) => pane.id)).toEqual([agent]);
  });

  test("a kill is the whole process group: a child ignoring SIGTERM and " +
    "SIGHUP gets SIGKILL after the grace; nothing is left", async () => {
    await startHost({ killGraceMs: 300 });
    await openAgent("leaky", [join(BIN, "spawn-stray")]);
    await waitForScreen("leaky", "stray=");
    const stray = Number(/stray=(\d+)/.exec(screenOf("leaky"))![1]);
    const [pane] = await host!.listAgentPanes();
    expect(isRunning(stray)).toBe(true);
    await host!.close();
    host = undefined;
    await pollUntil(() => !isRunning(stray) && !isRunning(pane!.pid), { what: "the agent and its stray child gone" });
  });

  test("bad calls are clear errors: an unknown pane, an empty argv; " +
    "a missing program is an exit, not a throw", async () => {
    await startHost();
    expect(() => host!.screen("ghost")).toThrow('no pane or agent "ghost" in this org — see `org status`');
    await expect(host!.respawn("ghost")).rejects.toThrow('no pane or agent "ghost" in this org');
    await expect(host!.open(spec([]))).rejects.toThrow("a pane needs a program: argv is empty");
    expect(await host!.listPanes()).toEqual([]);
    const worker = await openAgent("worker", [join(BIN, "forever")]);
    await expect(host!.respawn(worker, spec([]))).rejects.toThrow("a pane needs a program: argv is empty");
    expect((await host!.listPanes())[0]).toMatchObject({ id: worker, dead: false });
    const missing = await openAgent("missing", [join(dir, "no-such-program")]);
    const paneOf = async () => (await host!.listPanes()).find((pane) => pane.id === missing);
    await pollUntil(async () => (await paneOf())?.dead, { what: "the failed exec to exit" });
    expect(await paneOf()).toMatchObject({ agent: "missing", dead: true, exitCode: 1 });
  });
});
