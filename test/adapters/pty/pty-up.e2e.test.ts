import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { PtyClient } from "../../../src/adapters/pty/client.js";
import { PtyHost } from "../../../src/adapters/pty/host.js";
import { createWorld, ORG_BIN } from "../../../src/adapters/real-world.js";
import { DashboardSource } from "../../../src/domain/views/dashboard-source.js";
import type { AgentStatus, OrgRecord } from "../../../src/domain/state.js";
import { runOrg } from "../../helpers/org-cli.js";
import { pollUntil } from "../../helpers/poll.js";
import { findPtyHosts, isRunning } from "../../helpers/processes.js";
import { bin, createTestOrg, readJsonFile, teardownOrg, type TestOrg, tmux } from "../../helpers/test-org/index.js";

const orgYaml = (name: string) => `name: ${name}
repo: .
base: main
gpus: none
runtimes:
  printer: { command: ["${bin("print-env-sleep")}"], restart: always }
  dier: { command: ["${bin("exit-now")}"], restart: always }
roles:
  researcher: { prompt: prompts/researcher.md, runtime: printer, count: 2, edits: [train.py] }
  flaky: { prompt: prompts/researcher.md, runtime: dier }
supervisor: { backoff: 100ms, max_backoff: 200ms, max_restarts: 2, healthy_after: 5s }
`;

let org: TestOrg | undefined;
afterEach(() => {
  teardownOrg(org);
  org = undefined;
});

type StatusJson = { agents: { name: string; state: string; pid: number | null }[] };
const statusJson = (dir: string) => JSON.parse(runOrg(["status", "--json"], { cwd: dir }).stdout) as StatusJson;

// Looked for in their status files, not with an `org status` process a look; `org status --json` is asked once after.
const awaitRunning = (state: string, agents: string[]) => pollUntil(() => agents.every((agent) => {
  const path = join(state, "agents", agent, "status.json");
  return existsSync(path) && readJsonFile<AgentStatus>(path).state === "running";
}), { what: `${agents.join(", ")} running` });

describe("org up --no-tmux: the same org in node-pty", () => {
  test("agents run and are supervised with no tmux server; " +
    "org watch's feed reads their screens; org down leaves nothing", async () => {
    org = createTestOrg({ yaml: orgYaml });
    const { dir, socket } = org;
    const state = join(dir, "state");
    const ptySocket = join(state, "pty.sock");
    const up = runOrg(["up", "--no-tmux", "--no-attach"], { cwd: dir });
    expect(up.code).toBe(0);
    expect(up.stdout).toContain(`attach: org attach [agent]   (or: ${process.execPath} `);
    expect(tmux(socket, ["list-sessions"]).code).not.toBe(0);
    const record = readJsonFile<OrgRecord & { mode?: string }>(join(state, "org.json"));
    expect([record.mode, record.socket]).toEqual(["pty", `pty:${ptySocket}`]);
    expect(findPtyHosts(ptySocket)).toHaveLength(1);

    await awaitRunning(state, ["researcher-1", "researcher-2"]);
    const status = statusJson(dir);
    expect(status.agents.map((agent) => agent.name)).toEqual(["researcher-1", "researcher-2", "flaky-1"]);
    expect(status.agents.every((agent) => agent.state === "running" || agent.name === "flaky-1")).toBe(true);

    const source = new DashboardSource(createWorld(), dir, { goal: "minimize", metricName: "val_bpb" });
    const model = await pollUntil(async () => {
      const read = await source.read();
      return read.agents[0]?.screen.includes("ORG_AGENT=researcher-1") ? read : undefined;
    }, { what: "researcher-1's screen through the dashboard's feed" });
    source.close();
    expect(model.running).toBe(true);
    expect(model.agents[0]!.screen).toContain(`cwd=${join(dir, "worktrees", "researcher-1")}`);

    const flaky = await pollUntil(() => {
      const agentStatus = readJsonFile<AgentStatus>(join(state, "agents/flaky-1/status.json"));
      return agentStatus.state === "failed" ? agentStatus : undefined;
    }, { what: "the dying agent restarted by the daemon's supervisor, then marked failed" });
    expect(flaky.restarts).toBe(2);

    const again = runOrg(["up", "--no-tmux", "--no-attach"], { cwd: dir });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("already running");

    const agentPids = status.agents.flatMap((agent) => (agent.pid === null ? [] : [agent.pid]));
    const pids = [...findPtyHosts(ptySocket), ...agentPids];
    expect(pids.length).toBeGreaterThanOrEqual(3);
    const down = runOrg(["down"], { cwd: dir });
    expect(down.code).toBe(0);
    await pollUntil(() => pids.every((pid) => !isRunning(pid)), { what: "the pty host, daemon and agents gone" });
    expect(existsSync(ptySocket)).toBe(false);
    expect(findPtyHosts(ptySocket)).toEqual([]);
  });

  test("with no tmux on PATH, org up says so and runs the org without it", async () => {
    org = createTestOrg({ yaml: orgYaml });
    const { dir } = org;
    // A PATH with what org and the fixtures need, and no tmux.
    const path = join(dir, "state", "no-tmux-bin");
    mkdirSync(path, { recursive: true });
    for (const tool of ["git", "sleep", "ps"])
      symlinkSync(execFileSync("which", [tool], { encoding: "utf8" }).trim(), join(path, tool));
    const up = runOrg(["up", "--no-attach"], { cwd: dir, env: { PATH: path } });
    expect(up.code).toBe(0);
    expect(up.stderr).toContain(
      "notice: tmux not found on PATH — running the org without it (node-pty); watch it with `org watch`",
    );
    expect(readJsonFile<OrgRecord & { mode?: string }>(join(dir, "state", "org.json")).mode).toBe("pty");
    await awaitRunning(join(dir, "state"), ["researcher-1"]);
    const status = statusJson(dir);
    expect(status.agents[0]).toMatchObject({ name: "researcher-1", state: "running" });
    expect(status.agents[0]!.pid).not.toBeNull();
    expect(runOrg(["down"], { cwd: dir }).code).toBe(0);
    await pollUntil(() => !isRunning(status.agents[0]!.pid!), { what: "researcher-1 stopped" });
  });

  test("org watch in a terminal: enter focuses an agent, " +
    "typed keys reach it, Ctrl-] comes back, its size is restored", async () => {
    org = createTestOrg({ yaml: (name) => `name: ${name}
repo: .
base: main
gpus: none
runtimes:
  typist: { command: ["${bin("echo-line")}"], restart: always }
roles:
  researcher: { prompt: prompts/researcher.md, runtime: typist, count: 1, edits: [train.py] }
` });
    const { dir } = org;
    expect(runOrg(["up", "--no-tmux", "--no-attach"], { cwd: dir }).code).toBe(0);
    const terminal = await PtyHost.create({ cols: 100, rows: 30 });
    try {
      const exits: (number | null)[] = [];
      terminal.onExit((pane) => exits.push(pane.exitCode));
      const watch = await terminal.open({
        argv: [process.execPath, ORG_BIN, "watch"],
        cwd: dir,
        env: { NO_COLOR: "1", TMUX: "" },
      });
      const waitFor = (text: string) =>
        pollUntil(() => terminal.screen(watch).join("\n").includes(text), {
          what: `org watch to show ${JSON.stringify(text)}`,
          timeoutMs: 20_000,
        });
      await waitFor("enter focus");
      await waitFor("ready");
      terminal.write(watch, "\r");
      await waitFor("typing goes to researcher-1");
      terminal.write(watch, "hello from watch\r");
      await waitFor("got: hello from watch");
      terminal.write(watch, "\x1d");
      await waitFor("enter focus");
      terminal.write(watch, "q");
      await pollUntil(() => exits.length === 1, { what: "org watch to quit" });
      expect(exits).toEqual([0]);
    } finally {
      await terminal.close();
    }
    const client = await PtyClient.connect(join(dir, "state", "pty.sock"));
    try {
      const agent = (await client.list()).find((pane) => pane.agent === "researcher-1");
      expect(agent).toMatchObject({ dead: false, cols: 120, rows: 40 });
      expect(await client.screen("researcher-1")).toContain("got: hello from watch");
    } finally {
      client.close();
    }
  });
});
