import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runOrg } from "../helpers/org-cli.js";
import { pollUntil } from "../helpers/poll.js";
import { readScriptLog, scriptSection } from "../helpers/script-log.js";
import { bin, createTestOrg, swapRuntime, teardownOrg, templatePath, type TestOrg } from "../helpers/test-org/index.js";

// Scripted researchers (test/fixtures/bin/independent-researcher): each notes a lesson, reads the board, notes a failed
// idea;
// researcher-1 messages researcher-2, researcher-3 messages the whole role. The fake nvidia-smi shows four idle GPUs.
const RESEARCHERS = ["researcher-1", "researcher-2", "researcher-3"];
const env = { PATH: templatePath() };
const NOTES_MAX = 5;

let org: TestOrg;
let state: string;
const script = (agent: string) => readScriptLog(state, agent);
const entries = (text: string) => text.split("\n").filter((line) => line.startsWith("- "));
const lesson = (agent: string) =>
  new RegExp(`^- \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d ${agent}: lesson from ${agent}: warmup past 5% never helped$`);
const failed = (agent: string) =>
  new RegExp(
    `^- \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d ${agent}: failed idea of ${agent}: lr 0\\.04 diverges at batch 64$`,
  );
const inbox = (agent: string) => {
  const dir = join(state, "agents", agent, "inbox");
  return readdirSync(dir).filter((name) => name.endsWith(".md")).map((name) => readFileSync(join(dir, name), "utf8"));
};

describe("the independent template", () => {
  beforeAll(async () => {
    org = createTestOrg({
      template: "independent",
      edits: [...swapRuntime(bin("independent-researcher")), ["notes_max: 50 ", `notes_max: ${NOTES_MAX} `]],
      env,
    });
    state = join(org.dir, "state");
    const up = runOrg(["up"], { cwd: org.dir, env });
    expect(up.code, up.stderr).toBe(0);
    await pollUntil(() => RESEARCHERS.every((agent) => script(agent).includes("== done\n")), {
      what: "every researcher's script",
      timeoutMs: 60_000,
    }).catch((error: Error) => {
      throw new Error(`${error.message}\n${RESEARCHERS.map((agent) => `${agent}:\n${script(agent)}`).join("\n")}`);
    });
  }, 90_000);

  afterAll(() => teardownOrg(org));

  test("each researcher works on its own branch and GPU, with the template's prompt", () => {
    expect(RESEARCHERS.map((agent) => scriptSection(script(agent), "where"))).toEqual(
      RESEARCHERS.map((agent, gpu) => `org/independent/${agent}\ngpu ${gpu}\n`),
    );
    const prompt = readFileSync(join(state, "agents/researcher-3/prompt.md"), "utf8");
    expect(prompt).toContain("# You are researcher-3, a researcher in the independent org\n");
    expect(prompt).toContain("`org note` prints the board: one line per lesson, from every researcher, newest last.");
  });

  test("every researcher reads the others' lessons on the shared board, " +
    "which stays under its cap with the oldest archived", () => {
    // Each read the board after all three lessons were up and before anyone's second line could push one out.
    const seen = RESEARCHERS.map((agent) => entries(scriptSection(script(agent), "board")));
    for (const board of seen) {
      expect(board).toHaveLength(3);
      for (const agent of RESEARCHERS) expect(board.filter((line) => lesson(agent).test(line)), agent).toHaveLength(1);
    }
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[2]).toEqual(seen[0]);
    // Six notes under a cap of five: the board keeps the newest five in order, the archive the very first.
    const board = entries(readFileSync(join(state, "notes.md"), "utf8"));
    const archive = entries(readFileSync(join(state, "notes-archive.md"), "utf8"));
    expect(board).toHaveLength(NOTES_MAX);
    expect(archive).toEqual([seen[0]![0]]);
    expect(board.slice(0, 2)).toEqual(seen[0]!.slice(1));
    for (const agent of RESEARCHERS)
      expect(
        board.slice(2).filter((line) => failed(agent).test(line)),
        agent,
      ).toHaveLength(1);
    const noted = RESEARCHERS.map((agent) => scriptSection(script(agent), "note failed idea"));
    expect(
      noted.filter(
        (output) =>
          output ===
          `noted on the board (${NOTES_MAX} of ${NOTES_MAX} entries); ` +
            `the oldest entry moved to state/notes-archive.md\nexit 0\n`,
      ),
    ).toHaveLength(1);
  });

  test("researchers are wired to each other: a message is delivered, " +
    "read and the sender sees the receipt; bad recipients are refused", async () => {
    const log = script("researcher-1");
    expect(scriptSection(log, "send to an agent not in the org")).toBe(
      'org: no agent or role named "researcher-9" in org.yaml — did you mean "researcher-1"? ' +
        "(nothing was sent)\nexit 1\n",
    );
    expect(scriptSection(log, "send to a path")).toBe(
      'org: recipient "../researcher-2" contains ".", "/" — name an agent such as researcher-1 or a role such as ' +
        'researcher (nothing was sent)\nexit 1\n',
    );
    const id = /^delivered (\S+) to researcher-2 — `org inbox --sent` shows when it is read\nexit 0\n$/.exec(
      scriptSection(log, "send"),
    )?.[1];
    expect(id, scriptSection(log, "send")).toBeDefined();
    expect(scriptSection(script("researcher-2"), "inbox")).toContain(`\n## ${id} · from researcher-1 · note · `);
    expect(scriptSection(script("researcher-2"), "read")).toBe(`marked read: ${id}\nexit 0\n`);
    expect(existsSync(join(state, "agents/researcher-2/inbox/receipts", `${id}.json`))).toBe(true);
    expect(scriptSection(log, "sent")).toMatch(
      new RegExp(
        `^sent by researcher-1, newest last:\\n${id} note "lr 0\\.04 diverged for me; try 0\\.02": ` +
          `researcher-2 read \\d{4}-\\d\\d-\\d\\dT\\S+Z\\nexit 0\\n$`,
      ),
    );
    // A message to the role reaches the other researchers, not its sender.
    expect(scriptSection(script("researcher-3"), "send to the role")).toMatch(
      /^delivered \S+ to researcher-1, researcher-2 — /,
    );
    const fromRole = (agent: string) =>
      inbox(agent).filter(
        (text) =>
          text.includes("\nfrom: researcher-3\n") && text.endsWith("\n\nwarmup past 5% never helped me either\n"),
      );
    expect(RESEARCHERS.map((agent) => fromRole(agent).length)).toEqual([1, 1, 0]);
    // The message is announced in researcher-2's pane, whose program is alive and idle.
    const notified = () => {
      const file = join(state, "agents/researcher-2/notifications.jsonl");
      if (!existsSync(file)) return undefined;
      return readFileSync(file, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { outcome: string; ids: string[] })
        .find((entry) => entry.ids.includes(id!));
    };
    expect(await pollUntil(notified, { what: "researcher-2's notification", timeoutMs: 15_000 })).toMatchObject({
      outcome: "typed",
    });
  }, 30_000);
});
