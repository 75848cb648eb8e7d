import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parseMessage } from "../../../src/domain/messages/message-head.js";
import { runOrg, runOrgAsync, type CliResult } from "../../helpers/org-cli.js";
import { runOrgInProcess as runIn } from "../../helpers/org-in-process.js";
import { expectRefusedIn, snapshotDir } from "../../helpers/state-snapshot.js";
import { createRepo, removeDir } from "../../helpers/temp-repo.js";
import { createTestOrg, teardownOrg, type TestOrg } from "../../helpers/test-org/index.js";

// No `org up`: messages are files in state, so sending and reading need only org.yaml.
const orgYaml = (name: string) => `name: ${name}
gpus: none
runtimes:
  bot: { command: [bot] }
roles:
  chief: { prompt: prompts/researcher.md, runtime: bot }
  junior: { prompt: prompts/researcher.md, runtime: bot, count: 2, reports_to: chief }
  loner: { prompt: prompts/researcher.md, runtime: bot }
  crowd: { prompt: prompts/researcher.md, runtime: bot, count: 32, talks_to: [loner] }
messages: { max_bytes: 300, notes_max: 5 }
`;

let org: TestOrg;
let state: string;
const snapshot = () => snapshotDir(state);
const expectRefused = (result: CliResult, stderr: string, before: Record<string, string>, code?: number) =>
  expectRefusedIn(state, result, `${stderr}`, before, code);
const inbox = (agent: string) => join(state, "agents", agent, "inbox");
const messageFiles = (agent: string) =>
  existsSync(inbox(agent))
    ? readdirSync(inbox(agent))
        .filter((name) => name.endsWith(".md"))
        .sort()
    : [];
const as = (agent: string) => ({ cwd: org.dir, env: { ORG_AGENT: agent } });
const person = () => ({ cwd: org.dir, env: { ORG_AGENT: "" } });


function delivered(result: CliResult, to: string): string {
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  const match = new RegExp(`^delivered (\\S+) to ${to} — \`org inbox --sent\` shows when it is read\\n$`).exec(
    result.stdout,
  );
  expect(match, result.stdout).not.toBeNull();
  return match![1]!;
}

describe("org send, org inbox and org note", () => {
  beforeAll(() => {
    org = createTestOrg({ yaml: orgYaml });
    state = join(org.dir, "state");
  });
  afterAll(() => teardownOrg(org));

  test("a person sends to a role: one file per agent, same id, the sender's name and kind in the front matter",
    async () => {
    const id = delivered(
      await runIn(["send", "junior", "--kind", "task", "read", "the", "spec"], person()),
      "junior-1, junior-2",
    );
    for (const agent of ["junior-1", "junior-2"]) {
      const parsed = parseMessage(readFileSync(join(inbox(agent), `${id}.md`), "utf8"));
      expect(parsed).toMatchObject({
        ok: true,
        message: { id, from: "person", to: agent, kind: "task", body: "read the spec\n" },
      });
    }
  });

  test("an agent sends along its wiring: a file with -f, to the role it reports to", () => {
    writeFileSync(join(org.dir, "report.md"), "# Result\n\nkeep: val_bpb 0.98\n");
    const id = delivered(runOrg(["send", "chief", "-f", "report.md", "--kind", "result"], as("junior-2")), "chief-1");
    expect(readFileSync(join(inbox("chief-1"), `${id}.md`), "utf8")).toMatch(
      /\nfrom: junior-2\nto: chief-1\ntime: \S+\nkind: result\n---\n\n# Result\n\nkeep: val_bpb 0.98\n$/,
    );
  });

  test("a message to an unwired agent is refused, naming the wiring to add; nothing is written", async () => {
    const before = snapshot();
    expectRefused(
      await runIn(["send", "chief", "hello"], as("loner-1")),
      "org: loner-1 may not message chief: role loner is not wired to role chief — add talks_to: " +
        "[chief] to roles.loner in org.yaml (nothing was sent)",
      before,
    );
    expectRefused(
      await runIn(["send", "crowd-3", "hello"], as("loner-1")),
      "org: loner-1 may not message crowd-3: role loner is not wired to role crowd — add talks_to: " +
        "[crowd] to roles.loner in org.yaml (nothing was sent)",
      before,
    );
  });

  test("a message to an unknown agent or role is refused with a did-you-mean; nothing is written", async () => {
    const before = snapshot();
    expectRefused(
      await runIn(["send", "junor", "hello"], person()),
      'org: no agent or role named "junor" in org.yaml — did you mean "junior"? (nothing was sent)',
      before,
    );
    expectRefused(
      await runIn(["send", "junior-7", "hello"], person()),
      'org: no agent or role named "junior-7" in org.yaml — did you mean "junior-1"? (nothing was sent)',
      before,
    );
    expectRefused(
      await runIn(["send", "chief", "hello"], as("ghost-1")),
      'org: $ORG_AGENT is "ghost-1", which is not an agent of this org — unset ORG_AGENT to act as a person',
      before,
    );
  });

  test("names with ../ or a slash are refused; nothing is written", async () => {
    const before = snapshot();
    expectRefused(
      await runIn(["send", "../junior-1", "hello"], person()),
      'org: recipient "../junior-1" contains ".", "/" — name an agent such as chief-1 or a role such as chief ' +
        '(nothing was sent)',
      before,
    );
    expectRefused(
      await runIn(["send", "junior/1", "hello"], person()),
      'org: recipient "junior/1" contains "/" — name an agent such as chief-1 or a role such as chief (nothing was ' +
        'sent)',
      before,
    );
    expectRefused(
      await runIn(["send", "chief", "--kind", "../x", "hello"], person()),
      `org: kind "../x" contains ".", "/" — use 1-40 letters, digits, '-' or '_', starting with a letter or digit, ` +
        `e.g. "x" (nothing was sent)`,
      before,
    );
    expectRefused(
      await runIn(["inbox", "--agent", "../chief-1"], person()),
      'org: agent "../chief-1" contains ".", "/" — name an agent such as chief-1',
      before,
    );
    expectRefused(
      await runIn(["inbox", "--read", "../../org.json"], as("chief-1")),
      'org: "../../org.json" is not a message id — copy one from `org inbox`, e.g. 20260107-101502-123-0a1b2c3d',
      before,
    );
  });

  test("a message over the size cap is refused, as text or as a file; nothing is written", async () => {
    const before = snapshot();
    const cap =
      "over the cap of 300 (messages.max_bytes in org.yaml) — shorten it, " +
        "or write the details to a file and send its path (nothing was sent)";
    expectRefused(
      await runIn(["send", "chief", "x".repeat(301)], person()),
      `org: the message is 301 bytes, ${cap}`,
      before,
    );
    writeFileSync(join(org.dir, "long.md"), `${"line of a long spec\n".repeat(20)}`);
    const after = snapshot();
    expectRefused(runOrg(["send", "chief", "-f", "long.md"], person()), `org: the message is 400 bytes, ${cap}`, after);
    expectRefused(
      await runIn(["send", "chief"], person()),
      'org: nothing to send — give the text, org send <agent|role> "text", or a file, ' +
        'org send <agent|role> -f message.md',
      after,
      2,
    );
  });

  test("org inbox lists unread messages and reports a malformed file by file and line, skipping it", async () => {
    const id = delivered(await runIn(["send", "loner-1", "first", "note"], person()), "loner-1");
    const bad = "20200101-000000-000-00000000.md";
    writeFileSync(
      join(inbox("loner-1"), bad),
      "---\nid: 20200101-000000-000-00000000\nfrom chief-1\nto: loner-1\n---\nbody\n",
    );
    const result = await runIn(["inbox"], as("loner-1"));
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      `org: state/agents/loner-1/inbox/${bad}:3: front matter line "from chief-1" is not "key: value" — ` +
        `write it as key: value, e.g. kind: note (skipped)\n`,
    );
    expect(result.stdout).toMatch(
      new RegExp(
        `^1 unread message for loner-1, oldest first:\\n\\n## ${id} · from person · note · \\S+Z\\n\\nfirst ` +
          `note\\n\\nmark each one read once you have acted on it: org inbox --read <id>\\n$`,
      ),
    );
    expect(await runIn(["inbox"], person())).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "org: whose inbox? an agent runs `org inbox` in its own pane; a person names one: org inbox --agent <agent>\n",
    });
  });

  test("read receipts: the sender sees unread, then read, per recipient", async () => {
    const sent = await runIn(["send", "junior", "--kind", "task", "task two"], as("chief-1"));
    const id = delivered(sent, "junior-1, junior-2");
    const sentLine = (result: CliResult) => result.stdout.split("\n").find((line) => line.startsWith(id));
    expect(sentLine(await runIn(["inbox", "--sent"], as("chief-1")))).toBe(
      `${id} task "task two": junior-1 unread, junior-2 unread`,
    );
    expect(await runIn(["inbox", "--read", id], as("junior-1"))).toEqual({
      code: 0,
      stdout: `marked read: ${id}\n`,
      stderr: "",
    });
    expect((await runIn(["inbox", "--read", id], as("junior-1"))).stdout).toBe(`already read: ${id}\n`);
    expect(sentLine(await runIn(["inbox", "--sent"], as("chief-1")))).toMatch(
      new RegExp(`^${id} task "task two": junior-1 read \\d{4}-\\d\\d-\\d\\dT\\S+Z, junior-2 unread$`),
    );
    expect((await runIn(["inbox"], as("junior-1"))).stdout).not.toContain(id);
    const listed = await runIn(["inbox", "--agent", "junior-2"], person());
    expect(listed.stdout).toContain(`## ${id} · from chief-1 · task`);
  });

  test("32 senders to one recipient at the same instant: " +
    "every message delivered once, none lost or merged", async () => {
    const before = new Set(messageFiles("loner-1"));
    const results = await Promise.all(
      Array.from({ length: 32 }, (_, index) =>
        runOrgAsync(["send", "loner-1", `hello from crowd-${index + 1}`], {
          cwd: org.dir,
          env: { ORG_AGENT: `crowd-${index + 1}` },
          timeoutMs: 100_000,
        }),
      ),
    );
    expect(results.filter((result) => result.code !== 0)).toEqual([]);
    const fresh = messageFiles("loner-1").filter((name) => !before.has(name));
    expect(fresh).toHaveLength(32);
    const bodies = fresh.map((name) => {
      const parsed = parseMessage(readFileSync(join(inbox("loner-1"), name), "utf8"));
      if (!parsed.ok) throw new Error(`${name}: ${parsed.reason}`);
      expect(parsed.message.body).toBe(`hello from ${parsed.message.from}\n`);
      return parsed.message.from;
    });
    expect(bodies.sort()).toEqual(Array.from({ length: 32 }, (_, index) => `crowd-${index + 1}`).sort());
  }, 120_000);

  test("org note adds to the bounded board and prints it", async () => {
    for (let index = 1; index <= 6; index++) {
      expect((await runIn(["note", `lesson ${index}`], as("junior-1"))).code).toBe(0);
    }
    const board = (await runIn(["note"], person())).stdout;
    expect(
      board
        .split("\n")
        .filter((line) => line.startsWith("- "))
        .map((line) => line.replace(/^- \S+ \S+ /, "")),
    ).toEqual([
      "junior-1: lesson 2",
      "junior-1: lesson 3",
      "junior-1: lesson 4",
      "junior-1: lesson 5",
      "junior-1: lesson 6",
    ]);
    expect(readFileSync(join(state, "notes-archive.md"), "utf8")).toMatch(/ junior-1: lesson 1\n$/);
  });
});

describe("org init --template from the command line", () => {
  test("writes a pipeline that `org validate` accepts", () => {
    const dir = createRepo({ "train.py": "print('val_bpb: 1.0')\n" });
    try {
      expect(runOrg(["init", "--template", "pipeline"], { cwd: dir }).code).toBe(0);
      expect(runOrg(["validate"], { cwd: dir })).toEqual({
        code: 0,
        stdout: "org.yaml is valid: 3 roles, 3 agents, runtime claude\n",
        stderr: "",
      });
    } finally {
      removeDir(dir);
    }
  });
});

