import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { BOARD_HEADER } from "../../../src/domain/claims/board.js";
import { runOrg, runOrgAsync, type CliResult } from "../../helpers/org-cli.js";
import { runOrgInProcess as inOrg } from "../../helpers/org-in-process.js";
import { expectRefusedIn, snapshotDir } from "../../helpers/state-snapshot.js";
import { createTestOrg, teardownOrg, type TestOrg } from "../../helpers/test-org/index.js";

// No `org up`: the board is a file in state, so claiming needs only org.yaml.
const orgYaml = (name: string) => `name: ${name}
gpus: none
runtimes:
  bot: { command: [bot] }
roles:
  researcher: { prompt: prompts/researcher.md, runtime: bot, count: 2 }
claims: { similarity: 0.5, timeout: 2h }
`;

let org: TestOrg;
let state: string;
const snapshot = () => snapshotDir(state);
const expectRefused = (result: CliResult, stderr: string, before: Record<string, string>, code?: number) =>
  expectRefusedIn(state, result, `org: ${stderr}`, before, code);
const boardFile = () => join(state, "claims.md");
const as = (agent: string) => ({ cwd: org.dir, env: { ORG_AGENT: agent } });
const person = () => ({ cwd: org.dir, env: { ORG_AGENT: "" } });
const ago = (ms: number) => new Date(Date.now() - ms).toISOString().replace(/\.\d+Z$/, "Z");
const writeBoard = (...lines: string[]) => {
  mkdirSync(state, { recursive: true });
  writeFileSync(boardFile(), `${[...BOARD_HEADER, ...lines].join("\n")}\n`);
};
const writeResults = (...rows: string[][]) => {
  mkdirSync(state, { recursive: true });
  writeFileSync(
    join(state, "results.tsv"),
    [
      "commit\tval_bpb\tmemory_gb\tstatus\tdescription\tagent\tgpu\tseconds\ttime",
      ...rows.map((row) => row.join("\t")),
      "",
    ].join("\n"),
  );
};


function claimed(result: CliResult): number {
  expect(result.code, result.stderr).toBe(0);
  const match = /^claimed #(\d+) for \S+: .+\n/.exec(result.stdout);
  expect(match, result.stdout).not.toBeNull();
  return Number(match![1]);
}

describe("org claim and org claims", () => {
  beforeAll(() => {
    org = createTestOrg({ yaml: orgYaml });
    state = join(org.dir, "state");
  });
  beforeEach(() => rmSync(state, { recursive: true, force: true }));
  afterAll(() => teardownOrg(org));

  test("an agent claims an idea: a line on state/claims.md with its name and time; org claims lists it", async () => {
    // The built CLI once, as a process; every other case runs `main` in this process (a node start less each).
    const result = runOrg(["claim", "warmup", "10%", "then", "cosine"], as("researcher-1"));
    expect(result).toEqual({
      code: 0,
      stderr: "",
      stdout:
        "claimed #1 for researcher-1: warmup 10% then cosine\nit closes with your next verdict or after 2h; " +
          "moving on sooner: org claim --done 1 (or --drop 1)\n",
    });
    const lines = readFileSync(boardFile(), "utf8").split("\n");
    expect(lines.slice(0, BOARD_HEADER.length)).toEqual(BOARD_HEADER);
    expect(lines.slice(BOARD_HEADER.length)).toEqual([
      expect.stringMatching(/^- #1 researcher-1 \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ open: warmup 10% then cosine$/),
      "",
    ]);
    const list = await inOrg(["claims"], person());
    expect(list.stdout).toMatch(
      new RegExp(
        /^1 open claim, oldest first:\n#1 researcher-1 · \d+[sm] ago · open · warmup 10% then cosine\n\n/.source +
        /close yours when you move on: org claim --done <id> \(or --drop <id>\)\n$/.source,
      ),
    );
    const json = JSON.parse((await inOrg(["claims", "--json"], person())).stdout) as { claims: unknown[] };
    expect(json.claims).toEqual([
      {
        id: 1,
        agent: "researcher-1",
        time: expect.any(String),
        status: "open",
        closed: null,
        idea: "warmup 10% then cosine",
      },
    ]);
  });

  test("a person claims as person; an unknown $ORG_AGENT is refused and writes nothing", async () => {
    expect((await inOrg(["claim", "bigger batch"], person())).stdout).toMatch(
      /^claimed #1 for person: bigger batch\nit closes after 2h;/,
    );
    expectRefused(
      await inOrg(["claim", "x"], as("ghost-1")),
      '$ORG_AGENT is "ghost-1", which is not an agent of this org — unset ORG_AGENT to act as a person',
      snapshot(),
    );
  });

  test("a claim near an open claim or a tried idea is accepted with a warning naming it", async () => {
    writeResults([
      "abc1234",
      "0.990000",
      "0.0",
      "discard",
      "dropout 0.1 on the attention",
      "researcher-2",
      "cpu",
      "3.0",
      ago(3_600_000),
    ]);
    claimed(await inOrg(["claim", "cosine schedule with warmup"], as("researcher-2")));
    const near = await inOrg(["claim", "warmup then a cosine schedule"], as("researcher-1"));
    expect(claimed(near)).toBe(2);
    expect(near.stderr).toBe(
      "warning: near claim #1 by researcher-2: 'cosine schedule with warmup' (1.00) — pick another idea, " +
        "or ask researcher-2 first\n",
    );
    const tried = await inOrg(["claim", "dropout 0.1 on attention and MLP"], as("researcher-1"));
    expect(claimed(tried)).toBe(3);
    expect(tried.stderr).toBe(
      "warning: near tried idea abc1234 by researcher-2 (discard): 'dropout 0.1 on the attention' (0.75) — " +
        "say what is different this time, or pick another idea\n",
    );
    expect((await inOrg(["claim", "label smoothing"], as("researcher-1"))).stderr).toBe("");
  });

  test("an empty or whitespace idea, or an idea with --done, is refused and nothing is written", async () => {
    const fresh = snapshot();
    const empty = 'no idea given — say it in one line: org claim "the idea in one line" (nothing was changed)';
    expectRefused(await inOrg(["claim"], as("researcher-1")), empty, fresh, 2);
    expectRefused(await inOrg(["claim", "   "], as("researcher-1")), empty, fresh, 2);
    expectRefused(await inOrg(["claim", "\n\t"], as("researcher-1")), empty, fresh, 2);
    claimed(await inOrg(["claim", "first"], as("researcher-1")));
    const before = snapshot();
    expectRefused(await inOrg(["claim", " "], as("researcher-1")), empty, before, 2);
    expectRefused(
      await inOrg(["claim", "x", "--done", "1"], as("researcher-1")),
      "give one of: an idea, --done <id> or --drop <id> (nothing was changed)",
      before,
      2,
    );
    expectRefused(
      await inOrg(["claim", "--done", "1", "--drop", "1"], as("researcher-1")),
      "give one of: an idea, --done <id> or --drop <id> (nothing was changed)",
      before,
      2,
    );
  });

  test("an agent closes its own claim; a missing, another's or closed claim is refused and nothing is " +
    "written", async () => {
    claimed(await inOrg(["claim", "mine"], as("researcher-1")));
    claimed(await inOrg(["claim", "theirs"], as("researcher-2")));
    const before = snapshot();
    expectRefused(
      await inOrg(["claim", "--done", "7"], as("researcher-1")),
      "there is no claim #7 — `org claims --all` lists every claim with its number (nothing was changed)",
      before,
    );
    expectRefused(
      await inOrg(["claim", "--drop", "2"], as("researcher-1")),
      "claim #2 is researcher-2's, not researcher-1's — only researcher-2 may close it (nothing was changed)",
      before,
    );
    expectRefused(
      await inOrg(["claim", "--done", "2"], person()),
      "claim #2 is researcher-2's, not person's — only researcher-2 may close it (nothing was changed)",
      before,
    );
    expectRefused(
      await inOrg(["claim", "--done", "abc"], as("researcher-1")),
      '"abc" is not a claim id — give the number `org claims` shows, e.g. 3 (nothing was changed)',
      before,
    );
    expect(await inOrg(["claim", "--done", "1"], as("researcher-1"))).toEqual({
      code: 0,
      stderr: "",
      stdout: "closed claim #1 (done): mine\n",
    });
    expect(readFileSync(boardFile(), "utf8")).toMatch(
      /\n- #1 researcher-1 \S+ closed \S+ done: mine\n- #2 researcher-2 \S+ open: theirs\n$/,
    );
    const after = snapshot();
    const closedAt = /\n- #1 \S+ \S+ closed (\S+) done: /.exec(readFileSync(boardFile(), "utf8"))![1];
    expectRefused(
      await inOrg(["claim", "--drop", "1"], as("researcher-1")),
      `claim #1 is already closed (done at ${closedAt}) — nothing to close (nothing was changed)`,
      after,
    );
    expect((await inOrg(["claims"], person())).stdout).toMatch(/^1 open claim, oldest first:\n#2 researcher-2 · /);
  });

  test("a verdict of the claim's agent dated after it closes it, written to the board on the next " +
    "org claims", async () => {
    writeBoard(`- #1 researcher-1 ${ago(60_000)} open: lr 0.02`, `- #2 researcher-2 ${ago(60_000)} open: lr 0.04`);
    const judged = new Date().toISOString();
    writeResults(["1234567", "0.950000", "0.0", "keep", "lr 0.02", "researcher-1", "cpu", "3.0", judged]);
    expect((await inOrg(["claims"], person())).stdout).toMatch(
      /^1 open claim, oldest first:\n#2 researcher-2 · \d+m ago · open · lr 0.04\n/,
    );
    expect(readFileSync(boardFile(), "utf8")).toMatch(
      new RegExp(`\\n- #1 researcher-1 \\S+ closed ${judged.replace(/\.\d+Z$/, "Z")} keep 1234567: lr 0\\.02\\n`),
    );
    expect((await inOrg(["claims", "--all"], person())).stdout).toMatch(
      new RegExp(
        /^2 claims \(1 open\), oldest first:\n#1 researcher-1 · \d+m ago · keep 1234567 · lr 0\.02\n/.source +
        /#2 researcher-2 · \d+m ago · open · lr 0\.04\n/.source,
      ),
    );
  });

  test("a claim older than claims.timeout with no verdict expires", async () => {
    const made = ago(3 * 3_600_000);
    writeBoard(`- #1 researcher-1 ${made} open: stale idea`);
    expect((await inOrg(["claims"], person())).stdout).toMatch(/^no open claims — claim an idea before you work on it/);
    const expires = new Date(Date.parse(made) + 2 * 3_600_000).toISOString().replace(/\.\d+Z$/, "Z");
    expect(readFileSync(boardFile(), "utf8")).toContain(
      `\n- #1 researcher-1 ${made} closed ${expires} expired: stale idea\n`,
    );
  });

  test("a garbled board: each bad line is named by file and line, " +
    "the rest works, and every bad line survives the next write", async () => {
    const bad = [
      "this line is garbage",
      `- #2 researcher-2 ${ago(0).slice(0, 12)}`,
      "- #3 researcher-1 yesterday open: no time",
    ];
    writeBoard(`- #1 researcher-2 ${ago(60_000)} open: good one`, ...bad);
    const problems = [
      'org: state/claims.md:8: "this line is garbage" is not a claim — write it as - #<id> <agent> <time> open: ' +
        '<idea>, or delete the line (skipped; the line is kept as it is)',
      'org: state/claims.md:9: claim #2 has no idea after ": " — write the idea after the colon: ' +
        '- #<id> <agent> <time> open: <idea> (skipped; the line is kept as it is)',
      'org: state/claims.md:10: claim #3 has no ISO time ("yesterday") — ' +
        'write a time such as 2026-01-07T10:15:00Z after the agent (skipped; the line is kept as it is)',
    ];
    const list = await inOrg(["claims"], person());
    expect(list.stderr).toBe(`${problems.join("\n")}\n`);
    expect(list.stdout).toMatch(/^1 open claim, oldest first:\n#1 researcher-2 · \d+m ago · open · good one\n/);
    const next = await inOrg(["claim", "label smoothing"], as("researcher-1"));
    expect(claimed(next)).toBe(4);
    expect(next.stderr).toBe(`${problems.join("\n")}\n`);
    const text = readFileSync(boardFile(), "utf8");
    expect(text.split("\n").slice(BOARD_HEADER.length + 1, -2)).toEqual(bad);
    expect(text).toMatch(/\n- #4 researcher-1 \S+ open: label smoothing\n$/);
    expectRefused(
      await inOrg(["claim", "--done", "3"], as("researcher-1")),
      "claim #3 is on line 10 of state/claims.md, which does not parse — " +
        "fix that line first (write a time such as 2026-01-07T10:15:00Z after the agent) (nothing was changed)",
      snapshot(),
    );
  });

  test("two agents claiming at once lose nothing: every claim is on the board with its own number", async () => {
    const runs = Array.from({ length: 8 }, (_, index) =>
      runOrgAsync(["claim", `idea number ${index}`], { ...as(`researcher-${(index % 2) + 1}`), timeoutMs: 60_000 }),
    );
    const results = await Promise.all(runs);
    expect(results.map((result) => result.code)).toEqual(Array(8).fill(0));
    const entries = readFileSync(boardFile(), "utf8").split("\n").filter((line) => line.startsWith("- #"));
    expect(entries.map((line) => Number(/^- #(\d+)/.exec(line)![1])).sort((a, b) => a - b)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8,
    ]);
    expect(entries.map((line) => line.replace(/^.*: /, "")).sort()).toEqual(
      Array.from({ length: 8 }, (_, index) => `idea number ${index}`),
    );
    expect(existsSync(join(state, "claims.lock"))).toBe(false);
  });
});
