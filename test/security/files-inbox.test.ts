// Red team, an agent's inbox and task file: an agent without the sandbox (or as root) can write its own state folder,
// so it swaps its inbox/, notifications.jsonl or task archive for a link, and `org send`, the daemon's notifier or its
// chief's `org task` would write through it.
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { bundleScript } from "../helpers/bundle-script.js";
import { createTestOrg } from "../helpers/test-org/index.js";
import { handOver, IDENTITIES, runAs, runOrgAs, teardownOrgAs, type OrgAs } from "./identities.js";

const orgYaml = (name: string) => `name: ${name}
gpus: none
runtimes:
  idle: { command: ["sleep", "600"] }
roles:
  a: { prompt: prompts/researcher.md, runtime: idle }
  b: { prompt: prompts/researcher.md, runtime: idle, reports_to: a }
`;

// The daemon's notifier as the daemon runs it (bundled from src, run as `who`), over a pane in memory that takes any
// paste.
const notify = `
import { writeFileSync } from "node:fs";
import { Notifier } from "./src/daemon/notifier.ts";
import { MessagesSchema } from "./src/domain/config/index.ts";
import { sendMessage } from "./src/adapters/store/inbox-files.ts";
const messages = MessagesSchema.parse({ idle: "200ms" });
const at = new Date().toISOString();
const status = { agent: "b-1", state: "running", pid: process.pid, startedAt: at, restarts: 0, consecutiveFailures: 0,
  lastExit: null, reason: "running", updatedAt: at };
writeFileSync("state/agents/b-1/status.json", JSON.stringify(status));
let input = "";
const io = {
  listAgentPanes: async () => new Map([["b-1", "%1"]]),
  look: async (panes) => new Map(panes.map((pane) => [pane, { text: "0,0\\n> " + input, dead: false, agent: "b-1" }])),
  paste: async (_pane, line) => ((input += line), true),
  pressEnter: async () => ((input = ""), true),
  close: () => undefined,
};
const says = [];
const say = (line) => says.push(line);
const notifier = await Notifier.start({ record: { root: process.cwd() }, config: { messages }, say, io });
await sendMessage(process.cwd() + "/state", { from: "a-1", to: ["b-1"], kind: "task", body: "go" }, messages);
for (let at = Date.now(); says.length === 0 && Date.now() - at < 15000; ) await new Promise((go) => setTimeout(go, 50));
await notifier.stop();
console.log(says.join("\\n"));
`;

let org: OrgAs | undefined;
afterEach(() => {
  teardownOrgAs(org);
  org = undefined;
});

describe.each(IDENTITIES)("an agent's inbox as $name", (who) => {
  test("inbox/ swapped for a link: `org send` refuses it and writes nothing at its target", () => {
    org = createTestOrg({ as: who, yaml: orgYaml });
    const agentDir = join(org.dir, "state", "agents", "b-1");
    const target = join(org.dir, "elsewhere");
    mkdirSync(agentDir, { recursive: true });
    mkdirSync(target);
    symlinkSync(target, join(agentDir, "inbox"));
    handOver(who, join(org.dir, "state"));
    handOver(who, target);
    const sent = runOrgAs(who, ["send", "b-1", "hello"], { cwd: org.dir });
    expect(sent.stderr).toBe(`org: ${agentDir}/inbox is not a folder (a symbolic link or a file): not followed — org`
      + " writes the agents' inboxes itself: remove the link; nothing was sent\n");
    expect(sent.code).toBe(1);
    expect(readdirSync(target)).toEqual([]);
  });

  test("notifications.jsonl swapped for a link: the notifier says so and appends nothing at its target", async () => {
    org = createTestOrg({ as: who, yaml: orgYaml });
    const agentDir = join(org.dir, "state", "agents", "b-1");
    const victim = join(org.dir, "victim.txt");
    mkdirSync(agentDir, { recursive: true });
    writeFileSync(victim, "precious\n");
    symlinkSync(victim, join(agentDir, "notifications.jsonl"));
    handOver(who, join(org.dir, "state"));
    handOver(who, victim);
    const script = await bundleScript(`notify-inbox-${who.name}`, { text: notify });
    const run = runAs(who, [process.execPath, script], { cwd: org.dir });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(`notify b-1: ${agentDir}/notifications.jsonl is a symbolic link: not followed\n`);
    expect(readFileSync(victim, "utf8")).toBe("precious\n");
  });

  test("task-archive.md swapped for a link: the chief's `org task` refuses it; nothing is sent or written", () => {
    org = createTestOrg({ as: who, yaml: orgYaml });
    const agentDir = join(org.dir, "state", "agents", "b-1");
    const victim = join(org.dir, "victim.txt");
    mkdirSync(agentDir, { recursive: true });
    writeFileSync(join(agentDir, "task.md"), "the old task\n");
    writeFileSync(victim, "precious\n");
    symlinkSync(victim, join(agentDir, "task-archive.md"));
    handOver(who, join(org.dir, "state"));
    handOver(who, victim);
    const set = runOrgAs(who, ["task", "b-1", "tune the schedule"], { cwd: org.dir, env: { ORG_AGENT: "a-1" } });
    expect(set.stderr).toBe(`org: ${agentDir}/task-archive.md is a symbolic link: not followed — org writes the`
      + " juniors' task files itself: remove the link (nothing was changed)\n");
    expect(set.code).toBe(1);
    expect(readFileSync(victim, "utf8")).toBe("precious\n");
    expect(readFileSync(join(agentDir, "task.md"), "utf8")).toBe("the old task\n");
    expect(existsSync(join(agentDir, "inbox"))).toBe(false);
  });
});
