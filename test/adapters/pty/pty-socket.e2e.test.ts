import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { PtyClient } from "../../../src/adapters/pty/client.js";
import { PtyFeed } from "../../../src/adapters/pty/feed.js";
import { PtyFocus } from "../../../src/adapters/pty/focus.js";
import { PtyHost } from "../../../src/adapters/pty/host.js";
import { MAX_REQUEST_BYTES } from "../../../src/adapters/pty/lines.js";
import { keyBytes, ptyScreenPort } from "../../../src/adapters/pty/pty-screen-port.js";
import { startPtyServer, type PtyServer } from "../../../src/adapters/pty/server.js";
import { pollUntil } from "../../helpers/poll.js";
import { isRunning } from "../../helpers/processes.js";
import { makeTempDir } from "../../helpers/temp-repo.js";

const BIN = resolve("test/fixtures/bin");
let host: PtyHost | undefined;
let server: PtyServer | undefined;
const closers: (() => void)[] = [];
let dir = "";

afterEach(async () => {
  for (const close of closers.splice(0)) close();
  await server?.close();
  await host?.close();
  server = undefined;
  host = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function startServed(): Promise<string> {
  dir = makeTempDir("org-pty-sock-");
  host = await PtyHost.create({ cols: 80, rows: 10, killGraceMs: 500 });
  await host.open({
    argv: [join(BIN, "echo-line")],
    cwd: dir,
    env: {},
    options: { "@org_agent": "alpha", "@org_status": "starting" },
  });
  await host.open({
    argv: [join(BIN, "print-env-sleep")],
    cwd: dir,
    env: { ORG_AGENT: "beta" },
    options: { "@org_agent": "beta", "@org_status": "running" },
  });
  server = await startPtyServer(host, join(dir, "pty.sock"));
  return server.path;
}

async function connectClient(path: string): Promise<PtyClient> {
  const client = await PtyClient.connect(path);
  closers.push(() => client.close());
  return client;
}

/** Raw lines over a fresh connection: what any other program speaking the protocol sees. */
function exchange(path: string, payload: string, replies: number): Promise<{ lines: string[]; closed: boolean }> {
  return new Promise((resolveExchange) => {
    const socket = connect(path);
    let text = "";
    const lines = () => text.split("\n").filter(Boolean);
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      text += chunk;
      if (lines().length >= replies) socket.end();
    });
    socket.on("close", () => resolveExchange({ lines: lines(), closed: true }));
    socket.write(payload);
  });
}

describe("the pty host's control socket", () => {
  test("list, screen, keys, resize and respawn round trip; the socket is the owner's alone", async () => {
    const path = await startServed();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const client = await connectClient(path);
    const panes = await client.list();
    expect(panes.map((pane) => [pane.agent, pane.dead, pane.status])).toEqual([
      ["alpha", false, "starting"],
      ["beta", false, "running"],
    ]);
    await pollUntil(async () => (await client.screen("beta")).includes("ORG_AGENT=beta"), { what: "beta's screen" });
    await pollUntil(async () => (await client.screen("alpha")).includes("ready"), { what: "alpha ready" });
    // The cursor waits at the start of the line below "ready", where typing lands.
    expect(await client.request({ op: "screen", pane: "alpha" })).toMatchObject({ ok: true, cursor: { x: 0, y: 1 } });
    await client.keys("alpha", "over the socket\r");
    await pollUntil(async () => (await client.screen("alpha")).includes("got: over the socket"), {
      what: "typed text echoed",
    });
    await client.resize("alpha", 60, 8);
    expect(await client.screen("alpha")).toHaveLength(8);
    await client.respawn("beta");
    const after = await client.list();
    expect(after[1]!.pid).not.toBe(panes[1]!.pid);
    expect(after[1]).toMatchObject({ agent: "beta", dead: false });
  });

  test("the grid's calls: open panes with labels and logs, " +
    "respawn with a new launch, set options, kill; shutdown stops all", async () => {
    const path = await startServed();
    let shutdowns = 0;
    await server!.close();
    server = await startPtyServer(host!, path, () => {
      shutdowns++;
      void host!.close().then(() => server!.close());
    });
    const client = await connectClient(path);
    const log = join(dir, "agents", "gamma", "pane.log");
    const [gamma] = await client.open([
      { argv: [join(BIN, "echo-line")], cwd: dir, env: {}, options: { "@org_agent": "gamma" }, logFile: log },
    ]);
    expect(gamma).toBe("%2");
    await pollUntil(() => existsSync(log) && readFileSync(log, "utf8").includes("ready"), { what: "gamma's pane.log" });
    await client.respawn(gamma!, { argv: [join(BIN, "print-env-sleep")], cwd: dir, env: { ORG_AGENT: "gamma-2" } });
    await pollUntil(async () => (await client.screen("gamma")).includes("ORG_AGENT=gamma-2"), {
      what: "the new launch",
    });
    await client.options(gamma!, { "@org_status": "blocked", "@org_role": "tester" });
    expect((await client.list())[2]!.options).toEqual({
      "@org_agent": "gamma",
      "@org_status": "blocked",
      "@org_role": "tester",
    });
    const pids = (await client.list()).map((pane) => pane.pid);
    await client.kill(["alpha"]);
    expect((await client.list()).map((pane) => pane.agent)).toEqual(["beta", "gamma"]);
    expect(isRunning(pids[0]!)).toBe(false);
    await client.shutdown();
    expect(shutdowns).toBe(1);
    await pollUntil(() => pids.every((pid) => !isRunning(pid)), { what: "every pane stopped" });
    await pollUntil(() => !existsSync(path), { what: "the socket removed" });
  });

  test("bad requests get an error reply with their id, and the host keeps serving", async () => {
    const path = await startServed();
    const requests = [
      "this is not json",
      JSON.stringify({ id: 1, op: "explode" }),
      JSON.stringify({ id: 2, op: "screen" }),
      JSON.stringify({ id: 3, op: "screen", pane: "ghost" }),
      JSON.stringify({ id: 4, op: "resize", pane: "alpha", cols: 0, rows: 10 }),
      JSON.stringify({ id: 5, op: "keys", pane: "alpha", data: "x", extra: true }),
      JSON.stringify({ id: 6, op: "respawn", pane: "ghost" }),
      JSON.stringify([1, 2]),
      JSON.stringify({ id: 7, op: "open", panes: [{ argv: [], cwd: "/" }] }),
      JSON.stringify({ id: 8, op: "shutdown" }),
    ];
    const { lines } = await exchange(path, `${requests.join("\n")}\n`, requests.length);
    const replies = lines.map((line) => JSON.parse(line) as { id?: number; ok: boolean; error?: string });
    expect(replies.map((reply) => [reply.id, reply.ok])).toEqual([
      [undefined, false],
      [1, false],
      [2, false],
      [3, false],
      [4, false],
      [5, false],
      [6, false],
      [undefined, false],
      [7, false],
      [8, false],
    ]);
    expect(replies[0]!.error).toBe('not JSON — send one JSON object per line, e.g. {"op":"list"}');
    expect(replies[1]!.error).toMatch(
      new RegExp(
        /^bad request: op: .* — ops: list, screen\(pane\), keys\(pane, data\), resize\(pane, cols, rows\), /.source +
        /respawn\(pane, launch\?\), open\(panes\), kill\(panes\), options\(pane, options\), shutdown$/.source,
      ),
    );
    expect(replies[2]!.error).toMatch(/^bad request: pane: /);
    expect(replies[3]!.error).toBe('no pane or agent "ghost" in this org — see `org status`');
    expect(replies[4]!.error).toMatch(/^bad request: cols: /);
    expect(replies[5]!.error).toMatch(/^bad request: .*extra/);
    expect(replies[6]!.error).toBe('no pane or agent "ghost" in this org — see `org status`');
    expect(replies[8]!.error).toMatch(/^bad request: panes\.0\.(argv|env): /);
    expect(replies[9]!.error).toBe("this pty host is not shut down over its socket — stop the process that runs it");
    // Nothing changed: both agents still run with their first pids.
    const client = await connectClient(path);
    expect((await client.list()).map((pane) => [pane.agent, pane.dead])).toEqual([["alpha", false], ["beta", false]]);
    await expect(client.keys("ghost", "x")).rejects.toThrow('no pane or agent "ghost" in this org');
  });

  test("a request longer than the limit is refused and its connection closed; others are unaffected", async () => {
    const path = await startServed();
    const huge = JSON.stringify({ id: 9, op: "keys", pane: "alpha", data: "x".repeat(MAX_REQUEST_BYTES) });
    const { lines, closed } = await exchange(path, huge, 1);
    expect(closed).toBe(true);
    expect(JSON.parse(lines[0]!)).toEqual({
      ok: false,
      error: `request longer than ${MAX_REQUEST_BYTES} bytes — split the keys into smaller writes`,
    });
    expect(await (await connectClient(path)).list()).toHaveLength(2);
  });

  test("a stale socket file is replaced; a live one is refused; closing removes it", async () => {
    dir = makeTempDir("org-pty-sock-");
    const path = join(dir, "pty.sock");
    writeFileSync(path, "left by a crashed host");
    host = await PtyHost.create();
    server = await startPtyServer(host, path);
    expect(await (await connectClient(path)).list()).toEqual([]);
    await expect(startPtyServer(host, path)).rejects.toThrow(
      `another pty host is serving ${path} — stop that org first (org down)`,
    );
    await server.close();
    server = undefined;
    expect(existsSync(path)).toBe(false);
    await expect(PtyClient.connect(path)).rejects.toThrow(
      `no pty host at ${path} (ENOENT) — start the org with \`org up --no-tmux\``,
    );
  });

  test("the dashboard's pty feed: panes in tmux's shape plus the " +
    "screens asked for; nothing when the host is gone", async () => {
    const path = await startServed();
    const feed = new PtyFeed(path);
    closers.push(() => feed.close());
    const capture = await pollUntil(async () => {
      const result = await feed.capture(["%1", "ghost"]);
      return result.screens.get("%1")?.includes("ORG_AGENT=beta") ? result : undefined;
    }, { what: "beta captured" });
    expect(capture.panes.map((pane) => [pane.id, pane.dead, pane.deadStatus, pane.deadSignal, pane.options])).toEqual([
      ["%0", false, null, null, { "@org_agent": "alpha", "@org_status": "starting" }],
      ["%1", false, null, null, { "@org_agent": "beta", "@org_status": "running" }],
    ]);
    expect([...capture.screens.keys()]).toEqual(["%1"]);
    expect(await feed.sendKeys("alpha", "fed\r")).toBe(true);
    expect(await feed.sendKeys("ghost", "x")).toBe(false);
    await pollUntil(async () => (await feed.capture(["alpha"])).screens.get("alpha")?.includes("got: fed"), {
      what: "keys through the feed",
    });
    // A paste of 10 kB (more than one keys request) goes in pieces, in order; a tty line holds at most 4 kB.
    expect(await feed.sendKeys("alpha", `${`${"p".repeat(99)}\r`.repeat(100)}end of paste\r`)).toBe(true);
    await pollUntil(async () => (await feed.capture(["alpha"])).screens.get("alpha")?.includes("got: end of paste"), {
      what: "the paste echoed",
    });
    await server!.close();
    server = undefined;
    await pollUntil(async () => (await feed.capture(["alpha"])).panes.length === 0, {
      what: "an empty capture once the host is gone",
    });
    expect(await feed.capture(["alpha"])).toEqual({ panes: [], screens: new Map() });
  });

  test("focus from the dashboard: the agent's terminal takes the " +
    "pane's size, and its own size comes back after", async () => {
    const path = await startServed();
    const feed = new PtyFeed(path);
    closers.push(() => feed.close());
    const focus = new PtyFocus(feed);
    await focus.enter("alpha", 50, 7);
    await focus.enter("alpha", 60, 9);
    expect((await feed.panes())!.find((pane) => pane.agent === "alpha")).toMatchObject({ cols: 60, rows: 9 });
    expect(await focus.keys("alpha", "size\r")).toBe(true);
    await pollUntil(async () => (await feed.capture(["alpha"])).screens.get("alpha")?.includes("9 60"), {
      what: "the program to see its focused size",
    });
    expect(await focus.screen("alpha")).toMatchObject({
      lines: expect.arrayContaining(["9 60"]),
      cursor: { x: 0, y: 3 },
    });
    await focus.leave("alpha");
    expect((await feed.panes())!.find((pane) => pane.agent === "alpha")).toMatchObject({ cols: 80, rows: 10 });
    await expect(focus.enter("ghost", 50, 7)).rejects.toThrow("ghost has no pane — is the org up?");
  });

  test("the daemon's screen port: emulated screens, a line typed " +
    "then submitted, tmux key names as bytes, live panes", async () => {
    expect(["Enter", "Down", "Escape", "C-c", "C-[", "y"].map(keyBytes)).toEqual([
      "\r",
      "\x1b[B",
      "\x1b",
      "\x03",
      "\x1b",
      "y",
    ]);
    const path = await startServed();
    const port = ptyScreenPort(path);
    closers.push(() => port.close?.());
    const screens = await pollUntil(async () => {
      const captured = await port.capture(["%0", "ghost"]);
      return captured.get("%0")?.includes("ready") ? captured : undefined;
    }, { what: "alpha's screen" });
    expect([...screens.keys()]).toEqual(["%0"]);
    await port.sendLine("%0", "typed by the daemon");
    await pollUntil(async () => (await port.capture(["%0"])).get("%0")?.includes("got: typed by the daemon"), {
      what: "the line submitted",
    });
    expect(await port.paneAlive!("%0")).toBe(true);
    await port.sendKeys("%0", ["C-c"]);
    await pollUntil(async () => !(await port.paneAlive!("%0")), { what: "Ctrl-C to end alpha" });
    expect(await port.paneAlive!("%1")).toBe(true);
    expect(await port.paneAlive!("ghost")).toBe(false);
  });
});
