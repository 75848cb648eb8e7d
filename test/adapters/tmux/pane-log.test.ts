import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { processRunner } from "../../../src/adapters/process.js";
import { Tmux } from "../../../src/adapters/tmux/tmux.js";
import type { PaneHost } from "../../../src/domain/ports.js";
import { pollUntil } from "../../helpers/poll.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";
import { tmux as tmuxCli } from "../../helpers/test-org/index.js";

let dir: string | undefined;
let socket: string | undefined;
let host: PaneHost | undefined;
afterEach(async () => {
  host?.close();
  if (socket) await new Tmux(processRunner, socket, "org-log").killServer();
  if (dir) removeDir(dir);
  dir = socket = host = undefined;
});

test("an agent pane is logged from the daemon's first look: " +
  "what it showed before, then its live output, each once", async () => {
  dir = makeTempDir("org-pane-log-");
  socket = `org-test-log-${process.pid}`;
  const grid = new Tmux(processRunner, socket, "org-log");
  const log = join(dir, "agent's pane.log");
  const agent = ["sh", "-c", "echo before; read line; echo after $line; sleep 60"];
  const [, agentPane] = await grid.createGrid([
    { argv: ["sleep", "60"], cwd: dir, options: {}, logFile: join(dir, "daemon.log") },
    { argv: agent, cwd: dir, options: { "@org_agent": "a-1" }, logFile: log },
  ], { width: 80, height: 24 });
  const paneId = agentPane!.id;
  await pollUntil(() => tmuxCli(socket!, ["capture-pane", "-p", "-t", paneId]).out.includes("before"), {
    what: "the agent's first line",
  });
  // The agent pane is left to the supervisor; the daemon pane logs from its start.
  expect(existsSync(log)).toBe(false);
  host = grid.openPaneHost();
  const [pane] = (await host.listAgentPanes())!;
  expect(pane).toMatchObject({ agent: "a-1", logged: false });
  await host.startLog!(pane!.id, log, false);
  expect((await host.listAgentPanes())![0]).toMatchObject({ logged: true });
  tmuxCli(socket, ["send-keys", "-t", paneId, "go", "Enter"]);
  await pollUntil(() => existsSync(log) && readFileSync(log, "utf8").includes("after go"), {
    what: "the live line in the log",
  });
  const text = readFileSync(log, "utf8");
  expect(text.match(/before/g)).toHaveLength(1);
  expect(text.match(/after go/g)).toHaveLength(1);
  expect(text.indexOf("before")).toBeLessThan(text.indexOf("after go"));
  // The screen's empty rows below the text are not written.
  expect(text.startsWith("before\n")).toBe(true);
  expect(text).not.toMatch(/\n\n\n/);
  expect(tmuxCli(socket, ["list-buffers"]).out).toBe("");
});

test("a pane dead before its first look: its last screen is written once, " +
  "and its restart is logged from its first line", async () => {
  dir = makeTempDir("org-pane-log-");
  socket = `org-test-log-${process.pid}-dead`;
  const grid = new Tmux(processRunner, socket, "org-log");
  const log = join(dir, "pane.log");
  await grid.createGrid([
    { argv: ["sleep", "60"], cwd: dir, options: {}, logFile: join(dir, "daemon.log") },
    // The pause: under load tmux can mark a pane dead before it has drawn what a program printed as it exited.
    {
      argv: ["sh", "-c", "echo first life; sleep 0.3; exit 3"],
      cwd: dir,
      options: { "@org_agent": "a-1" },
      logFile: log,
    },
  ], { width: 80, height: 24 });
  host = grid.openPaneHost();
  const pane = await pollUntil(async () => (await host!.listAgentPanes())?.find((one) => one.dead), {
    what: "the pane dead",
  });
  expect(pane.logged).toBe(false);
  await host.startLog!(pane.id, log, true);
  // The log takes the screen as tmux drew it: under load tmux can
  // mark a pane dead before (or without) drawing its dead-pane line.
  expect(readFileSync(log, "utf8")).toMatch(/^first life\n(\n\[org\] a-1 exited with status 3.*\n)?$/);
  await host.respawn(pane.id, { argv: ["sh", "-c", "echo second life; sleep 60"], cwd: dir, env: {} }, log);
  await pollUntil(() => readFileSync(log, "utf8").includes("second life"), { what: "the restart's output in the log" });
  expect((await host.listAgentPanes())![0]).toMatchObject({ dead: false, logged: true });
  expect(readFileSync(log, "utf8").match(/first life/g)).toHaveLength(1);
});
