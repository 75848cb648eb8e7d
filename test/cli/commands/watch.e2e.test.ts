import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { AgentStatus } from "../../../src/domain/state.js";
import { ORG_BIN, runOrg } from "../../helpers/org-cli.js";
import { pollUntil } from "../../helpers/poll.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";
import { bin, createTestOrg, readJsonFile, teardownOrg, type TestOrg, tmux } from "../../helpers/test-org/index.js";

const orgYaml = (name: string) => `name: ${name}
gpus: none
runtimes:
  printer: { command: ["${bin("print-env-sleep")}"], restart: always }
  dier: { command: ["${bin("exit-now")}"], restart: never }
roles:
  researcher: { prompt: prompts/researcher.md, runtime: printer, count: 2 }
  flaky: { prompt: prompts/researcher.md, runtime: dier }
supervisor: { backoff: 100ms, max_backoff: 200ms, max_restarts: 3, healthy_after: 5s }
`;

let org: TestOrg | undefined;
let outer: string | undefined;
let tempDir: string | undefined;
afterEach(() => {
  if (outer) killServer(outer);
  outer = undefined;
  teardownOrg(org);
  org = undefined;
  if (tempDir) removeDir(tempDir);
  tempDir = undefined;
});

// kill-server leaves the socket file behind; ours carry our prefix, so removing it touches nothing else.
function killServer(socket: string): void {
  tmux(socket, ["kill-server"]);
  rmSync(join(process.env.TMUX_TMPDIR || "/tmp", `tmux-${process.getuid?.() ?? 0}`, socket), { force: true });
}

/**
 * A person's terminal of cols×rows, played by a pane of another tmux server, running `org watch`; its exit status is
 * printed after it.
 */
function openTerminal(
  socket: string,
  dir: string,
  size: { cols: number; rows: number },
  env: Record<string, string> = {},
): string {
  const name = `${socket}-outer`;
  const envArgs = Object.entries({ TMUX: "", ...env }).flatMap(([key, value]) => ["-e", `${key}=${value}`]);
  execFileSync("tmux", [
    "-L",
    name,
    "-f",
    "/dev/null",
    "new-session",
    "-d",
    "-x",
    String(size.cols),
    "-y",
    String(size.rows),
    ...envArgs,
    "env",
    "-u",
    "TMUX",
    "sh",
    "-c",
    `"$0" "$@"; echo "[watch exited $?]"; exec sleep 600`,
    process.execPath,
    ORG_BIN,
    "-C",
    dir,
    "watch",
  ]);
  return name;
}

const screen = (socket: string) => tmux(socket, ["capture-pane", "-p"]).out;
const keys = (socket: string, ...names: string[]) => tmux(socket, ["send-keys", ...names]);
/**
 * Waits for `text` on the terminal, or for every one of several on one screen (a frame drawn whole: a capture can
 * land while the dashboard is still writing its first); a timeout shows the screen it saw last.
 */
async function showing(socket: string, text: string | string[], what = String(text)): Promise<string> {
  const texts = typeof text === "string" ? [text] : text;
  return pollUntil(() => {
    const shown = screen(socket);
    return texts.every((one) => shown.includes(one)) ? shown : undefined;
  }, { what: `"${what}" on the dashboard`, timeoutMs: 15_000 }).catch((error: Error) => {
    throw new Error(`${error.message}; the screen:\n${screen(socket)}`);
  });
}
const status = (dir: string, agent: string) =>
  readJsonFile<AgentStatus>(join(dir, "state", "agents", agent, "status.json"));

describe("org watch", () => {
  test("a dashboard of every agent: select, help, restart, " +
    "attach and come back, and q leaves the org running", async () => {
    org = createTestOrg({ yaml: orgYaml });
    const { dir, name, socket } = org;
    expect(runOrg(["up"], { cwd: dir }).code).toBe(0);
    await pollUntil(
      () => status(dir, "flaky-1").state === "failed" && status(dir, "researcher-2").state === "running",
      { what: "agents settled" },
    );
    outer = openTerminal(socket, dir, { cols: 120, rows: 40 });

    const first = await showing(outer, ["▶ researcher-1 · running · cpu", "─ leaderboard ─", "─ events ─"],
      "the first frame, whole");
    expect(first).toContain(`org ${name} · running · up `);
    expect(first).toContain("researcher-2 · running · cpu");
    expect(first).toContain("flaky-1 · failed · cpu");
    expect(first).toContain("ORG_AGENT=researcher-1");
    expect(first).toContain("─ leaderboard ─");
    expect(first).toContain("─ events ─");
    expect(first).toMatch(/up\s+started 3 agents/);

    keys(outer, "Right");
    await showing(outer, "▶ researcher-2 · running");
    keys(outer, "?");
    await showing(outer, "org watch — keys");
    keys(outer, "Escape");
    await pollUntil(() => !screen(outer!).includes("org watch — keys"), { what: "help closed" });

    const before = status(dir, "researcher-2");
    keys(outer, "r");
    await showing(outer, `restart? SIGTERM to researcher-2's program (pid ${before.pid})`);
    keys(outer, "y");
    const after = await pollUntil(() => {
      const now = status(dir, "researcher-2");
      return now.state === "running" && now.pid !== before.pid ? now : undefined;
    }, { what: "researcher-2 restarted by its supervisor" });
    expect(after.restarts).toBe(before.restarts + 1);

    keys(outer, "Tab");
    await showing(outer, "▶ flaky-1 · failed");
    const flaky = status(dir, "flaky-1");
    keys(outer, "r");
    await showing(outer, "restart? respawn flaky-1's pane");
    keys(outer, "y");
    // A fresh budget: it runs and fails again, restarts counted from where they were.
    await pollUntil(() => status(dir, "flaky-1").lastExit?.pid !== flaky.lastExit?.pid, {
      what: "flaky-1 started again in its pane",
    });

    keys(outer, "Left");
    await showing(outer, "▶ researcher-2 · running");
    keys(outer, "Enter");
    // The dashboard's own control-mode client stays attached; a person's is the one that is not.
    const people = () =>
      tmux(socket, ["list-clients", "-F", "#{client_control_mode}"])
        .out.split("\n")
        .filter((mode) => mode === "0");
    await pollUntil(() => people().length === 1, { what: "a client attached to the org's grid" });
    expect(tmux(socket, ["display-message", "-p", "-t", `org-${name}`, "#{@org_agent}"]).out.trim()).toBe(
      "researcher-2",
    );
    keys(outer, "C-b", "d");
    await showing(outer, "▶ researcher-2 · running", "the dashboard again after detaching");
    expect(people()).toEqual([]);

    // Control clients attach with ignore-size: the dashboard's, and the daemon's two (its supervisor's and its
    // notifier's).
    const controls = () =>
      tmux(socket, ["list-clients", "-F", "#{client_flags}"])
        .out.split("\n")
        .filter((flags) => flags.includes("ignore-size"));
    expect(controls()).toHaveLength(3);
    const researcher1 = status(dir, "researcher-1");
    keys(outer, "q");
    await showing(outer, "[watch exited 0]");
    await pollUntil(() => controls().length === 2, { what: "the dashboard's control client gone" });
    const running = JSON.parse(runOrg(["status", "--json"], { cwd: dir }).stdout) as {
      running: boolean;
      agents: { name: string; state: string; pid: number | null }[];
    };
    expect(running.running).toBe(true);
    expect(running.agents.find((agent) => agent.name === "researcher-1")).toMatchObject({
      state: "running",
      pid: researcher1.pid,
    });
  });

  test("40×12 under NO_COLOR: a list of agents with the selected pane, " +
    "no color codes; resizing brings the grid", async () => {
    org = createTestOrg({ yaml: orgYaml });
    const { dir, name, socket } = org;
    expect(runOrg(["up"], { cwd: dir }).code).toBe(0);
    outer = openTerminal(socket, dir, { cols: 40, rows: 12 }, { NO_COLOR: "1" });

    const small = await showing(outer, "▶ researcher-1 running cpu");
    const lines = small.split("\n");
    expect(lines[0]).toMatch(new RegExp(`^org ${name} · running · up`));
    expect(lines).toContain("  researcher-2 running cpu -");
    expect(small).toContain("researcher-1 · running · cpu");
    expect(lines.every((line) => [...line].length <= 40)).toBe(true);
    const painted = tmux(outer, ["capture-pane", "-p", "-e"]).out;
    expect(painted).not.toMatch(/\x1b\[[0-9;]*(3[0-7]|9[0-7]|38;5;\d+|38;2;[\d;]+)m/);

    keys(outer, "Down");
    await showing(outer, "▶ researcher-2 running");
    keys(outer, "?");
    await showing(outer, "org watch — keys");
    keys(outer, "Escape");

    tmux(outer, ["resize-window", "-x", "120", "-y", "40"]);
    await showing(outer, ["▶ researcher-2 · running · cpu", "─ leaderboard ─"], "the grid after the resize, whole");
    expect(screen(outer)).toContain("─ leaderboard ─");
    keys(outer, "q");
    await showing(outer, "[watch exited 0]");
  });

  test("without a terminal, or without org state: one clear line, exit 1", async () => {
    tempDir = makeTempDir();
    const piped = runOrg(["watch"], { cwd: tempDir });
    expect(piped.code).toBe(1);
    expect(piped.stderr).toBe("org watch needs a terminal — use org status\n");
    expect(piped.stdout).toBe("");

    outer = openTerminal(`org-watch-nostate-${process.pid}`, tempDir, { cols: 150, rows: 10 });
    await showing(outer, "[watch exited 1]");
    expect(screen(outer).trim().split("\n")[0]).toBe(
      `org: no org state in ${join(tempDir, "state")} — run \`org up\` first`,
    );
  });
});
