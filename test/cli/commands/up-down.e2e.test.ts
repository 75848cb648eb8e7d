import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { AgentStatus } from "../../../src/domain/state.js";
import { isRunning } from "../../helpers/processes.js";
import { runOrg } from "../../helpers/org-cli.js";
import { pollUntil } from "../../helpers/poll.js";
import { killDaemonAndKeepers } from "../../helpers/keepers.js";
import { git } from "../../helpers/temp-repo.js";
import { bin, createTestOrg, readJsonFile, teardownOrg, type TestOrg, tmux } from "../../helpers/test-org/index.js";

const orgYaml = (name: string) => `name: ${name}
repo: .
base: main
gpus: none
runtimes:
  printer: { command: ["${bin("print-env-sleep")}"], restart: always }
  dier: { command: ["${bin("exit-now")}"], restart: always }
roles:
  researcher: { prompt: prompts/researcher.md, runtime: printer, count: 2, gpu: true, edits: [train.py] }
  flaky: { prompt: prompts/researcher.md, runtime: dier }
supervisor: { backoff: 100ms, max_backoff: 200ms, max_restarts: 3, healthy_after: 5s }
`;

let org: TestOrg | undefined;
afterEach(() => {
  teardownOrg(org);
  org = undefined;
});

describe("org up / status / down", { timeout: 60_000 }, () => {
  test("three agents in a grid: env, restarts, idempotent up, clean teardown", async () => {
    org = createTestOrg({ yaml: orgYaml });
    const { dir, socket, name } = org;
    const up = runOrg(["up"], { cwd: dir });
    expect(up.stderr).toContain('warning: CPU mode: gpus: none in org.yaml; agents get CUDA_VISIBLE_DEVICES=""');
    expect(up.code).toBe(0);
    expect(up.stdout).toContain(`attach: org attach [agent]   (or: tmux -L ${socket} attach-session -t org-${name})`);

    const panes = tmux(socket, [
      "list-panes",
      "-s",
      "-t",
      `org-${name}`,
      "-F",
      "#{pane_id} #{@org_agent} #{@org_role} #{@org_gpu}",
    ])
      .out.trim()
      .split("\n");
    expect(panes.map((line) => line.split(" ").slice(1).join(" ").trim())).toEqual([
      "",
      "researcher-1 researcher cpu",
      "researcher-2 researcher cpu",
      "flaky-1 flaky cpu",
    ]);

    const researcherPane = panes[1]!.split(" ")[0]!;
    // Its last line: under load a capture can land between two of the script's printf lines.
    const screen = await pollUntil(() => {
      const text = tmux(socket, ["capture-pane", "-p", "-t", researcherPane]).out;
      return text.split("\n").some((line) => line.startsWith("org=")) ? text : "";
    }, { what: "env printed in the pane" });
    const worktree = join(dir, "worktrees", "researcher-1");
    const state = join(dir, "state");
    for (const line of [
      `ORG_AGENT=researcher-1`,
      "ORG_ROLE=researcher",
      `ORG_STATE=${state}`,
      `ORG_WORKTREE=${worktree}`,
      `ORG_INBOX=${state}/agents/researcher-1/inbox`,
      `ORG_NAME=${name}`,
      "CUDA_VISIBLE_DEVICES=",
      `cwd=${worktree}`,
      `org=${state}/bin/org`,
    ]) {
      expect(screen.split("\n")).toContain(line);
    }
    expect(git(worktree, ["rev-parse", "--abbrev-ref", "HEAD"]).trim()).toBe(`org/${name}/researcher-1`);
    expect(readFileSync(join(state, "agents/researcher-1/prompt.md"), "utf8")).toContain(
      "You are researcher-1 (researcher) on GPU none (CPU). Edit only train.py.",
    );
    expect(git(dir, ["status", "--porcelain"]).trim()).toBe("");

    const flaky = await pollUntil(() => {
      const status = readJsonFile<AgentStatus>(join(state, "agents/flaky-1/status.json"));
      return status.state === "failed" ? status : undefined;
    }, { what: "the dying agent to be restarted, then marked failed" });
    expect(flaky.restarts).toBe(3);

    const status = JSON.parse(runOrg(["status", "--json"], { cwd: dir }).stdout) as {
      agents: { name: string; state: string; pid: number | null; head: string }[];
      daemon: { services: { name: string; lastTickAt: string | null; lagMs: number | null }[] };
    };
    expect(status.agents.map((agent) => [agent.name, agent.state])).toEqual([
      ["researcher-1", "running"],
      ["researcher-2", "running"],
      ["flaky-1", "failed"],
    ]);
    // Every daemon service as its last heartbeat wrote it: the loops have ticked; the notifier runs on its own events.
    expect(
      status.daemon.services.map((service) => [service.name, typeof service.lastTickAt, typeof service.lagMs]),
    ).toEqual([
      ["keeper", "string", "number"],
      ["supervisor", "string", "number"],
      ["outbox", "string", "number"],
      ["screens", "string", "number"],
      ["verifier", "string", "number"],
      ["notifier", "object", "object"],
      ["hot-reload", "string", "number"],
      ["standups", "string", "number"],
      ["usage", "string", "number"],
      ["stop", "string", "number"],
      ["disk", "string", "number"],
      ["status-table", "string", "number"],
      ["heartbeat", "string", "number"],
    ]);
    expect(status.agents[0]!.head).toBe(git(dir, ["rev-parse", "main"]).trim());
    const pids = status.agents.map((agent) => agent.pid).filter((pid): pid is number => pid !== null);
    expect(pids).toHaveLength(2);

    const before = tmux(socket, ["list-panes", "-s", "-t", `org-${name}`, "-F", "#{pane_id}:#{pane_pid}"]).out;
    const again = runOrg(["up"], { cwd: dir });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`org ${name} is already running (tmux -L ${socket}); nothing changed`);
    expect(tmux(socket, ["list-panes", "-s", "-t", `org-${name}`, "-F", "#{pane_id}:#{pane_pid}"]).out).toBe(before);

    const down = runOrg(["down"], { cwd: dir });
    expect(down.code).toBe(0);
    expect(tmux(socket, ["has-session"]).code).not.toBe(0);
    for (const pid of pids) expect(isRunning(pid)).toBe(false);
    expect(existsSync(join(state, "up.lock"))).toBe(false);
    const log = readFileSync(join(state, "log.md"), "utf8");
    expect(log.match(/^## \[\d{4}-\d\d-\d\d\] restart \| flaky-1$/gm)).toHaveLength(3);
    expect(log).toMatch(
      new RegExp(
        /^## \[\d{4}-\d\d-\d\d\] failed \| flaky-1\nexited (with code 1 )?after (\d+ms|[\d.]+s); gave up /.source +
        /after 3 restarts without a run lasting 5s$/.source,
        "m",
      ),
    );
    expect(log).toMatch(
      /^## \[\d{4}-\d\d-\d\d\] up \| started 3 agents\n[\s\S]*^## \[\d{4}-\d\d-\d\d\] down \| stopped 3 agents/m,
    );
  });

  test("agents outlive a daemon and its keeper killed with SIGKILL; " +
    "org up brings it back, and it adopts them and restarts by policy again", async () => {
    org = createTestOrg({ yaml: orgYaml });
    const { dir } = org;
    const state = join(dir, "state");
    expect(runOrg(["up"], { cwd: dir }).code).toBe(0);
    const daemon = await pollUntil(() => readJsonFile<{ pid: number | null }>(join(state, "daemon.json")).pid, {
      what: "the daemon's heartbeat",
    });
    const researcher = readJsonFile<AgentStatus>(join(state, "agents/researcher-1/status.json"));
    // Both at once: the keeper would restart the daemon by itself (test/cli/commands/keeper.e2e.test.ts), the daemon
    // the keeper.
    await pollUntil(() => existsSync(join(state, "keeper.lock")), { what: "the keeper" });
    killDaemonAndKeepers(dir, daemon, { group: true });
    await pollUntil(() => !isRunning(daemon), { what: "the daemon gone" });
    expect(isRunning(researcher.pid!)).toBe(true);

    const again = runOrg(["up"], { cwd: dir });
    expect(again.stdout, again.stderr).toContain("its daemon had exited and was restarted (agents untouched)");
    const revived = await pollUntil(() => {
      const pid = readJsonFile<{ pid: number | null }>(join(state, "daemon.json")).pid;
      return pid && pid !== daemon ? pid : undefined;
    }, { what: "a new daemon's heartbeat" });
    expect(isRunning(revived)).toBe(true);
    expect(readJsonFile<AgentStatus>(join(state, "agents/researcher-1/status.json"))).toMatchObject({
      state: "running",
      pid: researcher.pid,
    });
    process.kill(researcher.pid!, "SIGKILL");
    const restarted = await pollUntil(() => {
      const now = readJsonFile<AgentStatus>(join(state, "agents/researcher-1/status.json"));
      return now.state === "running" && now.pid !== researcher.pid ? now : undefined;
    }, { what: "researcher-1 restarted by the new daemon" });
    expect(restarted.restarts).toBe(1);
    expect(readFileSync(join(state, "log.md"), "utf8")).toMatch(/^## \[\d{4}-\d\d-\d\d\] up \| restarted the daemon$/m);
  });

  test("a second up after down resumes the same worktrees; down --clean keeps dirty ones", async () => {
    org = createTestOrg({ yaml: orgYaml });
    const { dir } = org;
    expect(runOrg(["up"], { cwd: dir }).code).toBe(0);
    const worktree = join(dir, "worktrees", "researcher-2");
    writeFileSync(join(worktree, "train.py"), "print('val_bpb: 0.9')\n");
    git(worktree, ["commit", "-qam", "try"]);
    const head = git(worktree, ["rev-parse", "HEAD"]).trim();
    expect(runOrg(["down"], { cwd: dir }).code).toBe(0);

    expect(runOrg(["up"], { cwd: dir }).code).toBe(0);
    expect(git(worktree, ["rev-parse", "HEAD"]).trim()).toBe(head);
    writeFileSync(join(worktree, "notes.md"), "unsaved idea\n");
    const down = runOrg(["down", "--clean"], { cwd: dir });
    expect(down.code).toBe(0);
    expect(down.stdout).toContain("removed worktrees: researcher-1, flaky-1 (branches kept)");
    expect(down.stdout).toContain(
      `kept ${worktree}: uncommitted changes (1 path: notes.md) — commit or discard it, ` +
        `then \`org down --clean\` again`,
    );
    expect(existsSync(join(dir, "worktrees", "researcher-1"))).toBe(false);
    expect(readFileSync(join(worktree, "notes.md"), "utf8")).toBe("unsaved idea\n");
    expect(git(dir, ["branch", "--list", "org/*"]).trim().split("\n")).toHaveLength(3);
  });
});
