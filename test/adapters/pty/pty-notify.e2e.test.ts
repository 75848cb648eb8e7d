import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PtyClient } from "../../../src/adapters/pty/client.js";
import type { AgentStatus, OrgRecord } from "../../../src/domain/state.js";
import { runOrg } from "../../helpers/org-cli.js";
import { pollUntil } from "../../helpers/poll.js";
import { findPtyHosts } from "../../helpers/processes.js";
import { bin, createTestOrg, readJsonFile, teardownOrg, type TestOrg } from "../../helpers/test-org/index.js";
import { readNotifications } from "../../helpers/notifications.js";

// One agent idles on its terminal (which echoes what is typed), one turns on bracketed paste and shows each read raw.
const orgYaml = (name: string) => `name: ${name}
gpus: none
runtimes:
  idle: { command: ["${bin("forever")}"], restart: never }
  probe: { command: ["${bin("paste-probe")}"], restart: never }
roles:
  chief: { prompt: prompts/researcher.md, runtime: idle }
  junior: { prompt: prompts/researcher.md, runtime: probe, reports_to: chief }
messages: { idle: 300ms, busy_timeout: 1500ms }
`;


let org: TestOrg;
let state: string;
let client: PtyClient;
let panes: Record<string, string>;
const screen = (agent: string) => client.screen(agent);
const outcomes = (agent: string) => readNotifications(state, agent);
const status = (agent: string) => readJsonFile<AgentStatus>(join(state, "agents", agent, "status.json"));

function send(args: string[], agent: string): string {
  const result = runOrg(["send", ...args], { cwd: org.dir, env: { ORG_AGENT: agent } });
  expect(result.stderr).toBe("");
  return /^delivered (\S+) /.exec(result.stdout)![1]!;
}

describe("org up --no-tmux: notifications and status as under tmux", () => {
  beforeAll(async () => {
    org = createTestOrg({ yaml: orgYaml });
    state = join(org.dir, "state");
    const up = runOrg(["up", "--no-tmux", "--no-attach"], { cwd: org.dir });
    expect(up.code, up.stderr).toBe(0);
    panes = Object.fromEntries(
      readJsonFile<OrgRecord>(join(state, "org.json")).agents.map((agent) => [agent.name, agent.paneId!]),
    );
    client = await PtyClient.connect(join(state, "pty.sock"));
    await pollUntil(
      async () =>
        ["chief-1", "junior-1"].every(
          (agent) => existsSync(join(state, "agents", agent, "status.json")) && status(agent).state === "running",
        ) && (await screen("junior-1")).includes("ready"),
      { what: "both agents running", timeoutMs: 20_000 },
    );
  }, 60_000);

  afterAll(async () => {
    client?.close();
    teardownOrg(org);
    await pollUntil(() => findPtyHosts(join(state, "pty.sock")).length === 0, { what: "the pty host gone" });
  });

  test("org status names the pty host and how to reach it, not a tmux socket; --json says the backend", () => {
    const header = runOrg(["status"], { cwd: org.dir }).stdout.split("\n")[0];
    expect(header).toBe(`org ${org.name}: running (CPU mode) · pty host: state/pty.sock — org attach / org watch`);
    const json = JSON.parse(runOrg(["status", "--json"], { cwd: org.dir }).stdout) as { mode: string; socket: string };
    expect([json.mode, json.socket]).toEqual(["pty", `pty:${join(state, "pty.sock")}`]);
  });

  test("a message is typed into its recipient's pty pane as one line, and the outcome logged", async () => {
    const id = send(["chief-1", "--kind", "task", "try a cosine schedule; the details stay in the file"], "junior-1");
    await pollUntil(() => outcomes("chief-1").length > 0, { what: "chief-1's notification", timeoutMs: 10_000 });
    expect(outcomes("chief-1")).toMatchObject([
      { outcome: "typed", ids: [id], from: ["junior-1"], pane: panes["chief-1"], attempts: 1 },
    ]);
    const lines = await screen("chief-1");
    expect(lines).toContain("[org] new message from junior-1 (task): run `org inbox`");
    expect(lines.join("\n")).not.toContain("cosine");
    expect((await screen("junior-1")).join("\n")).not.toContain("new message");
  });

  test("the line arrives as one bracketed paste (the program asked for it), then Enter outside it", async () => {
    const id = send(["junior-1", "standup at noon"], "chief-1");
    await pollUntil(() => outcomes("junior-1").length > 0, { what: "junior-1's notification", timeoutMs: 10_000 });
    expect(outcomes("junior-1")).toMatchObject([
      { outcome: "typed", ids: [id], from: ["chief-1"], pane: panes["junior-1"] },
    ]);
    // The program may read the paste and the Enter in one read or two: what matters is the bytes, in order.
    const received = async () =>
      (await screen("junior-1"))
        .filter((line) => line.startsWith("read: "))
        .map((line) => JSON.parse(line.slice(6)) as string)
        .join("");
    const bytes = await pollUntil(async () => {
      const got = await received();
      return got.endsWith("\r") ? got : undefined;
    }, { what: "the Enter after the paste" });
    expect(bytes).toBe("\x1b[200~[org] new message from chief-1 (note): run `org inbox`\x1b[201~\r");
  });
});
