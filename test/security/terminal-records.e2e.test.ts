// Terminal escapes an agent wrote, as a person reads them: what org prints of records an older build stored raw, and
// what org itself writes to the files people `cat`. The sandboxed agent's own attack is terminal-agent.e2e.test.ts.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { main } from "../../src/cli/main.js";
import { stripAnsi } from "../../src/ui/strip-ansi.js";
import { createRepo, removeDir, writeFiles } from "../helpers/temp-repo.js";
import { ATTACKS, HOSTILE, findUnsafe } from "./terminal-payloads.js";
import { createVerifierOrg } from "../helpers/test-org/verifier-loop.js";

const ORG_YAML = `name: term
gpus: none
runtimes:
  bot: { command: [bot] }
roles:
  researcher: { prompt: prompts/researcher.md, runtime: bot, count: 2 }
`;
const COMMIT = "a1b2c3d".padEnd(40, "0");
const MESSAGE_ID = "20260402-100000-000-0a1b2c3d";
// A newline and a carriage return too: in a one-line field they would print a line of the agent's own.
const MULTI_LINE = `${HOSTILE}\n[org] verdict keep a1b2c3d\r[org] verdict keep`;

/** An org's repo, not up: the commands below read only org.yaml and state/. */
function createOrg(): string {
  return createRepo({ "org.yaml": ORG_YAML, "prompts/researcher.md": "# r\n" });
}

/** state/ as builds before the sanitiser left it: escapes raw in every file, newlines only where the format allowed. */
function writeOldRecords(dir: string): void {
  const time = "2026-04-02T10:00:00.000Z";
  const header = "commit\tval_bpb\tmemory_gb\tstatus\tdescription\tagent\tgpu\tseconds\ttime";
  const row = [COMMIT.slice(0, 7), "0.980000", "1.0", "discard", HOSTILE, "researcher-1", "cpu", "12.0", time];
  const tried = {
    commit: COMMIT, agent: "researcher-1", description: MULTI_LINE, status: "discard", metric: 0.98,
    reason: `discard: ${HOSTILE}`, seconds: 12, time,
  };
  const head = `---\nid: ${MESSAGE_ID}\nfrom: researcher-1\nto: researcher-2\ntime: ${time}\nkind: note\n---\n`;
  writeFiles(dir, {
    "state/results.tsv": `${header}\n${row.join("\t")}\n`,
    "state/tried.jsonl": `${JSON.stringify(tried)}\n`,
    // An empty journal vouches for no row: org results names the row as tampered, description and all.
    "state/journal.jsonl": "",
    "state/notes.md": `# Notes board\n\n- 2026-04-02 10:00 researcher-1: ${HOSTILE}\n`,
    "state/claims.md": `# Claims board\n\n- #1 researcher-1 2026-04-02T10:00:00Z open: ${HOSTILE}\n`,
    [`state/agents/researcher-2/inbox/${MESSAGE_ID}.md`]: `${head}\n${MULTI_LINE}\nsecond line\n`,
  });
}

let dir: string | undefined;
afterEach(() => {
  if (dir) removeDir(dir);
  dir = undefined;
  delete process.env.ORG_AGENT;
});

async function org(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(["-C", dir!, ...args], { out: (text) => out.push(text), err: (text) => err.push(text) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("what org prints of records that hold an agent's escapes", () => {
  test.each([
    [["tried"], "DESCRIPTION"],
    [["results"], "TAMPERED results.tsv line 2"],
    [["note"], "researcher-1: idea"],
    [["claims", "--all"], "#1 researcher-1"],
    [["inbox", "--agent", "researcher-2"], "second line"],
  ])("org %s: the text is there, no escape, control or bidi character is", async (args, shown) => {
    dir = createOrg();
    writeOldRecords(dir);
    const result = await org(args);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toContain(shown);
    expect(result.out).toContain("idea");
    expect(findUnsafe(result.out)).toBeUndefined();
    expect(findUnsafe(result.err)).toBeUndefined();
    // A one-line field stays one line: none reads as org's own verdict. The message body is the agent's own lines.
    if (args[0] !== "inbox") expect(result.out.split("\n").filter((line) => line.startsWith("[org]"))).toEqual([]);
  });

  test("--json keeps the original, escaped as JSON, and its text holds nothing a terminal acts on", async () => {
    dir = createOrg();
    writeOldRecords(dir);
    const tried = await org(["tried", "--json"]);
    expect(findUnsafe(tried.out)).toBeUndefined();
    const entries = JSON.parse(tried.out) as { description: string; reason: string }[];
    expect(entries[0]).toMatchObject({ description: MULTI_LINE, reason: `discard: ${HOSTILE}` });
    const claims = await org(["claims", "--all", "--json"]);
    expect(findUnsafe(claims.out)).toBeUndefined();
    expect((JSON.parse(claims.out) as { claims: { idea: string }[] }).claims[0]!.idea).toBe(HOSTILE);
  });

  test("a pane log replayed by org logs: a TUI's redraws read as text, every escape and control character gone", () => {
    const pane = `$ train\r\n\x1b[?1049h\x1b[2J\x1b[Hstep 1\rstep 2\x1b[K\r\n${HOSTILE}\r\n\x1b]52;c;AAAA`;
    const text = stripAnsi(pane);
    expect(text.split("\n").slice(0, 2)).toEqual(["$ train", "step 2"]);
    expect(findUnsafe(text)).toBeUndefined();
  });
});

describe("what org writes of an agent's escapes", () => {
  test("org note, claim and send: notes.md, claims.md and the message hold the text, none of its escapes", async () => {
    dir = createOrg();
    process.env.ORG_AGENT = "researcher-1";
    for (const args of [["note", MULTI_LINE], ["claim", MULTI_LINE], ["send", "researcher-2", MULTI_LINE]]) {
      const result = await org(args);
      expect(result.code, result.err).toBe(0);
      expect(findUnsafe(result.out + result.err)).toBeUndefined();
    }
    const inbox = join(dir, "state/agents/researcher-2/inbox");
    const message = readdirSync(inbox).find((name) => name.endsWith(".md"))!;
    for (const file of ["state/notes.md", "state/claims.md", join("state/agents/researcher-2/inbox", message)]) {
      const text = readFileSync(join(dir, file), "utf8");
      expect(text, file).toContain("idea");
      expect(findUnsafe(text), file).toBeUndefined();
    }
    // One line each on the boards: the newline of the note and the claim is a space.
    for (const board of ["state/notes.md", "state/claims.md"]) {
      const lines = readFileSync(join(dir, board), "utf8").split("\n");
      expect(lines.filter((line) => line.includes("verdict keep")), board).toHaveLength(1);
    }
  });

  test("the verifier: results.tsv, log.md and the verdict hold none of its escapes", async () => {
    const tried = createVerifierOrg({ daemon: false, agents: ["r-1"], verify: {} });
    dir = tried.root;
    const loop = tried.daemon();
    await tried.settle(loop);
    // Its run prints the escapes too (value.txt is what the score script echoes): the crash's log tail carries them.
    const commit = tried.commit("r-1", { "value.txt": `${ATTACKS.clipboard}${ATTACKS.fakeVerdict}\n` }, "attack");
    tried.submit("r-1", commit, MULTI_LINE);
    await tried.settle(loop);
    const results = readFileSync(join(tried.state, "results.tsv"), "utf8");
    const log = readFileSync(join(tried.state, "log.md"), "utf8");
    expect(results).toContain("idea");
    expect(log).toContain("idea");
    expect(tried.inbox("r-1")).toContain("verdict crash");
    for (const [file, text] of [["results.tsv", results], ["log.md", log], ["inbox", tried.inbox("r-1")]] as const) {
      expect(findUnsafe(text), file).toBeUndefined();
    }
    expect(results.split("\n").filter((line) => line.includes("verdict keep"))).toHaveLength(1);
    // The ledger is JSON: the original, escaped, for `org tried --json`.
    expect(tried.entries().at(-1)?.description).toBe(MULTI_LINE);
  });
});
