import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { AgentStatus, OrgRecord } from "../../src/domain/state.js";
import { isAlive } from "../../src/adapters/process.js";
import { runOrg } from "../helpers/org-cli.js";
import { pollUntil } from "../helpers/poll.js";
import { bin, createTestOrg, readJsonFile, teardownOrg, type TestOrg, tmux } from "../helpers/test-org/index.js";
import { readNotifications } from "../helpers/notifications.js";

// Agents that idle (sleep on the pane's terminal, which echoes what is typed), one that dies at
// once, and one whose pane never stops changing. No verify section: only the notifier is at work.
const orgYaml = (name: string) => `name: ${name}
gpus: none
runtimes:
  idle: { command: ["${bin("forever")}"], restart: never }
  dier: { command: ["${bin("exit-now")}"], restart: never }
  chatty: { command: [sh, -c, "while :; do date +%s%N; sleep 0.05; done"], restart: never }
roles:
  chief: { prompt: prompts/researcher.md, runtime: idle }
  junior: { prompt: prompts/researcher.md, runtime: idle, count: 2, reports_to: chief }
  ghost: { prompt: prompts/researcher.md, runtime: dier }
  busy: { prompt: prompts/researcher.md, runtime: chatty }
messages: { idle: 300ms, busy_timeout: 1500ms }
`;


let org: TestOrg;
let state: string;
let panes: Record<string, string>;
const status = (agent: string) => readJsonFile<AgentStatus>(join(state, "agents", agent, "status.json"));
const screen = (agent: string) => tmux(org.socket, ["capture-pane", "-p", "-t", panes[agent]!]).out;
const paneLog = (agent: string) => readFileSync(join(state, "agents", agent, "pane.log"), "utf8");
const outcomes = (agent: string) => readNotifications(state, agent);

function send(args: string[], agent = ""): string {
  const result = runOrg(["send", ...args], { cwd: org.dir, env: { ORG_AGENT: agent } });
  expect(result.stderr).toBe("");
  return /^delivered (\S+) /.exec(result.stdout)![1]!;
}

describe("notifications into the pane", () => {
  beforeAll(async () => {
    org = createTestOrg({ yaml: orgYaml });
    state = join(org.dir, "state");
    const up = runOrg(["up"], { cwd: org.dir });
    expect(up.code, up.stderr).toBe(0);
    const record = readJsonFile<OrgRecord>(join(state, "org.json"));
    panes = Object.fromEntries(record.agents.map((agent) => [agent.name, agent.paneId!]));
    await pollUntil(
      () =>
        ["chief-1", "junior-1", "junior-2", "busy-1"].every((agent) => status(agent).state === "running") &&
        status("ghost-1").state === "failed",
      { what: "agents running, the ghost failed", timeoutMs: 20_000 },
    );
  }, 60_000);

  afterAll(() => teardownOrg(org));

  test("a message appears as one line in its recipient's pane, and in no other", async () => {
    const id = send(
      ["junior-1", "--kind", "task", "try a cosine schedule; the details are long and stay in the file"],
      "chief-1",
    );
    const line = "[org] new message from chief-1 (task): run `org inbox`";
    await pollUntil(() => outcomes("junior-1").length > 0, { what: "junior-1's notification", timeoutMs: 10_000 });
    expect(outcomes("junior-1")).toMatchObject([
      { outcome: "typed", ids: [id], from: ["chief-1"], pane: panes["junior-1"], attempts: 1 },
    ]);
    expect(screen("junior-1")).toContain(line);
    expect(screen("junior-1")).not.toContain("cosine");
    for (const other of ["chief-1", "junior-2", "ghost-1", "busy-1"])
      expect(screen(other), other).not.toContain("new message");
  });

  test("a message to a role notifies each of its agents", async () => {
    const id = send(["junior", "standup at noon"]);
    for (const agent of ["junior-1", "junior-2"]) {
      await pollUntil(() => outcomes(agent).some((outcome) => outcome.ids.includes(id)), {
        what: `${agent}'s notification`,
        timeoutMs: 10_000,
      });
      expect(outcomes(agent).find((outcome) => outcome.ids.includes(id))).toMatchObject({
        outcome: "typed",
        from: ["person"],
      });
      expect(screen(agent)).toContain("[org] new message from person (note): run `org inbox`");
    }
  });

  test("a recipient whose program died keeps the message and gets no keystrokes", async () => {
    const id = send(["ghost-1", "are you there?"]);
    await pollUntil(() => outcomes("ghost-1").length > 0, { what: "the ghost's outcome", timeoutMs: 10_000 });
    expect(outcomes("ghost-1")).toMatchObject([
      {
        outcome: "skipped-dead",
        ids: [id],
        reason: expect.stringMatching(/^its program is failed: exited (with code 1 )?after /),
      },
    ]);
    expect(existsSync(join(state, "agents", "ghost-1", "inbox", `${id}.md`))).toBe(true);
    expect(screen("ghost-1")).not.toContain("are you there");
    expect(screen("ghost-1")).not.toContain("new message");
    expect(paneLog("ghost-1")).not.toContain("new message");
  });

  test("a program killed from outside leaves a dead pane that gets no keystrokes", async () => {
    const running = status("junior-2");
    process.kill(-running.pid!, "SIGKILL");
    await pollUntil(
      () => tmux(org.socket, ["display-message", "-p", "-t", panes["junior-2"]!, "#{pane_dead}"]).out.trim() === "1",
      { what: "junior-2's pane to die" },
    );
    const before = paneLog("junior-2");
    const id = send(["junior-2", "still there?"], "chief-1");
    await pollUntil(() => outcomes("junior-2").some((outcome) => outcome.ids.includes(id)), {
      what: "junior-2's outcome",
      timeoutMs: 10_000,
    });
    expect(outcomes("junior-2").at(-1)).toMatchObject({
      outcome: "skipped-dead",
      ids: [id],
      reason: expect.stringMatching(
        /^its (pane is dead|program has exited|program is failed: .*restart policy is never)$/,
      ),
    });
    expect(paneLog("junior-2")).toBe(before);
    expect(screen("junior-2")).not.toContain("from chief-1");
  });

  test("a pane that never goes still is left alone, and the wait is recorded as busy", async () => {
    const id = send(["busy-1", "when you have a moment"]);
    await pollUntil(() => outcomes("busy-1").length > 0, { what: "the busy pane's outcome", timeoutMs: 10_000 });
    expect(outcomes("busy-1")).toMatchObject([{ outcome: "skipped-busy", ids: [id] }]);
    expect(paneLog("busy-1")).not.toContain("new message");
  });

  test("a malformed message file is reported and skipped; the org keeps running and notifying", async () => {
    const daemon = readJsonFile<{ pid: number }>(join(state, "daemon.json")).pid;
    const bad = join(state, "agents", "chief-1", "inbox", "20200101-000000-000-00000000.md");
    writeFileSync(bad, "---\nfrom: junior-1\n");
    const listed = runOrg(["inbox"], { cwd: org.dir, env: { ORG_AGENT: "chief-1" } });
    expect(listed.stderr).toBe(
      "org: state/agents/chief-1/inbox/20200101-000000-000-00000000.md:2: the front matter is never closed — " +
        "end it with a line holding only --- (skipped)\n",
    );
    expect(listed.stdout).toBe("no unread messages for chief-1\n");
    const id = send(["chief", "results are in"], "junior-1");
    await pollUntil(() => outcomes("chief-1").some((outcome) => outcome.ids.includes(id)), {
      what: "chief-1's notification",
      timeoutMs: 10_000,
    });
    expect(outcomes("chief-1").map((outcome) => outcome.ids)).toEqual([[id]]);
    expect(screen("chief-1")).toContain("[org] new message from junior-1 (note): run `org inbox`");
    expect(isAlive(daemon)).toBe(true);
    // Looked for in state/daemon.log, which `org logs daemon`
    // prints, not with a process a look; then the command says it.
    const report = "state/agents/chief-1/inbox/20200101-000000-000-00000000.md:2: the front matter is never closed";
    const daemonLog = join(org.dir, "state", "daemon.log");
    await pollUntil(() => existsSync(daemonLog) && readFileSync(daemonLog, "utf8").includes(report), {
      what: "the report in the daemon's pane",
    });
    expect(runOrg(["logs", "daemon"], { cwd: org.dir }).stdout).toContain(report);
  });
});
