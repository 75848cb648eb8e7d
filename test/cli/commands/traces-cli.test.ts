import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { formatEntry, sealEntry, type JournalEntry } from "../../../src/domain/experiments/journal.js";
import { formatHeader, formatRow, type ResultRow } from "../../../src/domain/experiments/results-table.js";
import { FIXTURES } from "../../helpers/org-cli.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";
import { makeLaunchSpec } from "../../helpers/launch-spec.js";

// An org's state as `org traces` reads it, no org running: agents' launch records and homes, results and journal.
const TRACES = join(FIXTURES, "transcripts/traces");
const ABC = "abc1234".padEnd(40, "0");
const DEF = "def5678".padEnd(40, "0");
let root: string;
let state: string;

function placeAgent(agent: string, launch: object, fixture?: [string, string]) {
  const home = join(state, "agents", agent, "home");
  mkdirSync(home, { recursive: true });
  if (fixture) {
    mkdirSync(dirname(join(home, fixture[1])), { recursive: true });
    copyFileSync(join(TRACES, fixture[0]), join(home, fixture[1]));
  }
  writeFileSync(join(state, "agents", agent, "launch.json"), JSON.stringify(makeLaunchSpec({ agent, ...launch })));
  return home;
}

const row = (
  agent: string,
  commit: string,
  status: ResultRow["status"],
  metric: number | undefined,
  description: string,
  time: string,
): ResultRow => ({
  agent, commit, status, metric, memoryGb: 0, description, gpu: null, seconds: 3, time, program: "",
});

beforeAll(() => {
  root = makeTempDir("org-traces-cli-");
  state = join(root, "state");
  mkdirSync(state, { recursive: true });
  writeFileSync(join(root, "org.yaml"), "name: t\n");
  const agents = ["a-1", "c-1", "r-1", "g-1"].map((name) => ({
    name,
    role: "researcher",
    runtime: "x",
    branch: `org/t/${name}`,
    worktree: join(root, name),
    gpu: null,
  }));
  const orgJson = {
    version: 1, name: "t", root, repo: root, base: "main", baseCommit: "0".repeat(40),
    socket: "none", session: "none", cpuMode: true, agents, upAt: "2026-12-05T05:00:00Z",
  };
  writeFileSync(join(state, "org.json"), JSON.stringify(orgJson));
  placeAgent("a-1", { runtime: { preset: "claude", home: join(state, "agents/a-1/home") } },
    ["claude.jsonl", "projects/-work/s.jsonl"]);
  // c-1's transcript ends in the middle of its submit's line, written long ago: truncated.
  const codex = placeAgent("c-1", { runtime: { preset: "codex", home: join(state, "agents/c-1/home") } },
    ["codex.jsonl", "sessions/2026/12/05/rollout-x.jsonl"]);
  const file = join(codex, "sessions/2026/12/05/rollout-x.jsonl");
  const text = readFileSync(file, "utf8");
  writeFileSync(file, text.slice(0, text.indexOf("org submit") + 5));
  utimesSync(file, new Date(0), new Date(0));
  placeAgent("r-1", { argv: ["org", "builtin", "hillclimb"] });
  placeAgent("g-1", { runtime: { preset: "aider", home: join(state, "agents/g-1/home") } });
  const rows = [
    row("a-1", "1".repeat(40), "keep", 0.8, "baseline", "2026-12-05T05:12:00.000Z"),
    row("a-1", ABC, "discard", 0.91, "halve lr", "2026-12-05T05:13:01.000Z"),
    row("r-1", "2".repeat(40), "crash", undefined, "HIDDEN 16 -> 20", "2026-12-05T05:14:00.000Z"),
    row("c-1", "3".repeat(40), "discard", 0.95, "halve lr", "2026-12-05T05:15:00.000Z"),
    row("a-1", DEF, "keep", 0.7, "wider", "2026-12-05T05:16:00.000Z"),
    row("org", "4".repeat(40), "discard", 0.85, "stack abc onto def", "2026-12-05T05:17:00.000Z"),
  ];
  const header = formatHeader("val_loss");
  writeFileSync(join(state, "results.tsv"), `${header}\n${rows.map(formatRow).join("\n")}\n`);
  // The verifier's journal names each row's experiment id.
  let head: JournalEntry | undefined;
  const genesis = { kind: "genesis", payload: { results: { lines: 0, sha256: "" }, frontier: null } } as const;
  const entries = [sealEntry(undefined, genesis, new Date())];
  head = entries[0];
  for (const each of rows) {
    const id = `2026-12-05T05-13-00-000Z-${each.agent}-${each.commit.slice(0, 7)}`;
    const payload = { agent: each.agent, commit: each.commit, request: id, header, row: formatRow(each) };
    head = sealEntry(head, { kind: "row", payload }, new Date());
    entries.push(head);
  }
  writeFileSync(join(state, "journal.jsonl"), `${entries.map(formatEntry).join("\n")}\n`);
});
afterAll(() => removeDir(root));

async function org(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(["-C", root, "traces", ...args], {
    out: (text) => out.push(text),
    err: (text) => err.push(text),
  });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

const listing = () => readdirSync(state, { recursive: true })
  .map(String)
  .sort()
  .map((path) => `${path}:${statSync(join(state, path)).mtimeMs}`);

describe("org traces", () => {
  it("an agent: per experiment what it expected, ran, was told and did next; " +
    "a verdict its transcript lacks is unknown, said why", async () => {
    const { code, out, err } = await org("a-1");
    expect({ code, err }).toEqual({ code: 0, err: "" });
    expect(out).toBe([
      '── 2026-12-05 05:13:00 abc1234 discard 0.910000 "halve lr" · 2026-12-05T05-13-00-000Z-a-1-abc1234',
      "  expected: I expect halving the learning rate to lower val_loss below 0.8.",
      "  message:  halve lr",
      "  ran:      $ echo looking",
      '            $ org submit -m "halve lr"',
      '  verdict:  submitted abc1234 "halve lr"; waiting for the verifier… / ' +
        "metric 0.910000 · your best 0.800000 (1234567) · delta +0.110000 · discard / worse than your best",
      "  next:     The loss went up; I will try a smaller change. All done.",
      "",
      '── 2026-12-05 05:16:00 def5678 keep 0.700000 "wider" · 2026-12-05T05-13-00-000Z-a-1-def5678',
      "  trace unknown: no `org submit` of def5678 in Claude Code's transcript",
    ].join("\n"));
  });

  it("--diverged: every discard and crash, the expectation beside the verdict; " +
    "a builtin, a truncated transcript and a stack say why not", async () => {
    const { code, out } = await org("--diverged");
    expect(code).toBe(0);
    expect(out).toContain('── 2026-12-05 05:13:00 a-1 abc1234 discard 0.910000 "halve lr"');
    expect(out).toContain("  expected: I expect halving the learning rate to lower val_loss below 0.8.");
    expect(out).toContain(
      '── 2026-12-05 05:14:00 r-1 2222222 crash "HIDDEN 16 -> 20" · 2026-12-05T05-13-00-000Z-r-1-2222222\n'
      + "  trace unknown: r-1 has no transcript: a built-in researcher calls no model, so it writes no transcript",
    );
    const truncated = new RegExp(
      /── 2026-12-05 05:15:00 c-1 3333333 discard 0\.950000 "halve lr" · \S+\n {2}/.source +
      /trace unknown: sessions\/2026\/12\/05\/rollout-x\.jsonl: /.source +
      /truncated — it ends in a half-written line \(\d+ characters\)/.source,
    );
    expect(out).toMatch(truncated);
    expect(out).toContain('org 4444444 discard 0.850000 "stack abc onto def" · 2026-12-05T05-13-00-000Z-org-4444444\n'
      + "  trace unknown: a stack is the verifier's own experiment: no agent's transcript holds it");
    expect(out).not.toContain("def5678");
    type Diverged = { result: { agent: string }; expected?: string; unknown?: string };
    const json = JSON.parse((await org("--diverged", "--json")).out) as Diverged[];
    expect(json.map((trace) => [trace.result.agent, trace.expected ?? trace.unknown?.slice(0, 21)])).toEqual([
      ["a-1", "I expect halving the learning rate to lower val_loss below 0.8."], ["r-1", "r-1 has no transcript"],
      ["c-1", "sessions/2026/12/05/r"], ["org", "a stack is the verifi"],
    ]);
  });

  it("--grep without an agent searches every transcript; --since and --experiment narrow", async () => {
    const all = await org("--grep", "halv(ing|e) ");
    expect(all.out.split("\n")).toEqual([
      "2026-12-05 05:13:00 a-1 said I expect halving the learning rate to lower val_loss below 0.8.",
      '2026-12-05 05:13:00 a-1 $ org submit -m "halve lr"',
      '2026-12-05 05:13:00 a-1 → submitted abc1234 "halve lr"; waiting for the verifier… ' +
        "metric 0.910000 · your best 0.800000 (1234567) · delta +0.110000 · discard worse than your best",
      "2026-12-05 05:13:02 c-1 said I expect halving the learning rate to lower val_loss below 0.8.",
    ]);
    expect(all.err).toBe([
      "org: r-1 has no transcript: a built-in researcher calls no model, so it writes no transcript",
      "org: g-1 has no transcript: a aider runtime writes no transcript org can read " +
        "(org reads Claude Code, Codex, Gemini CLI and opencode)",
    ].join("\n"));
    expect((await org("--grep", "halv", "--since", "2026-12-05T05:13:01Z")).out).toBe(all.out.split("\n")[3]);
    expect((await org("--grep", "halv", "--since", "1m")).out).toBe("no match in any transcript");
    const one = await org("--experiment", "abc1234");
    expect(one.out.split("\n")).toEqual([
      '── 2026-12-05 05:13:00 a-1 abc1234 discard 0.910000 "halve lr" · 2026-12-05T05-13-00-000Z-a-1-abc1234',
      "2026-12-05 05:13:00 told Please do research",
      "2026-12-05 05:13:00 said Let me look first.",
      "2026-12-05 05:13:00 $    echo looking",
      "2026-12-05 05:13:00 →    looking",
      "2026-12-05 05:13:00 said I expect halving the learning rate to lower val_loss below 0.8.",
      '2026-12-05 05:13:00 $    org submit -m "halve lr"',
      '2026-12-05 05:13:00 →    submitted abc1234 "halve lr"; waiting for the verifier…',
      "                         metric 0.910000 · your best 0.800000 (1234567) · delta +0.110000 · discard",
      "                         worse than your best",
      "  next:     The loss went up; I will try a smaller change. All done.",
    ]);
    const echoes = await org("a-1", "--experiment", "2026-12-05T05-13-00-000Z-a-1-abc1234", "--grep", "^echo");
    expect(echoes.out).toBe("2026-12-05 05:13:00 a-1 $ echo looking");
  });

  it.each([
    [["nobody"], 1, 'no agent named "nobody" — choose one of: a-1, c-1, r-1, g-1'],
    [
      ["a-1", "--grep", "lr("], 2,
      "--grep \"lr(\" is not a regular expression (/lr(/: Unterminated group) — " +
        "escape a special character with \\, e.g. --grep 'lr\\('",
    ],
    [
      ["a-1", "--since", "yesterday"], 2,
      '--since "yesterday" is neither a duration nor a time — ' +
        "give one like 30m, 2h or 1d, or a time like 2026-12-05T04:00Z",
    ],
    [
      ["r-1"], 1,
      "r-1 has no transcript: a built-in researcher calls no model, so it writes no transcript — " +
        "what it tried is in `org tried`, what it printed in `org logs r-1`",
    ],
    [
      ["g-1"], 1,
      "g-1 has no transcript: a aider runtime writes no transcript org can read " +
        "(org reads Claude Code, Codex, Gemini CLI and opencode) — `org logs g-1` shows its pane",
    ],
    [
      ["a-1", "--experiment", "9999999"], 1,
      'no experiment "9999999" of a-1 — `org traces a-1` lists them, each with its id',
    ],
    [
      ["--experiment", "9999999"], 1,
      'no experiment "9999999" in the org\'s results — `org tried` lists every experiment with its commit',
    ],
    [[], 2, "name an agent, or ask for --diverged or --grep <regex> — e.g. `org traces researcher-1`"],
  ])("bad input %j: exit %i, the exact error, nothing changed", async (args, status, message) => {
    const before = listing();
    const { code, out, err } = await org(...args);
    expect({ code, out, err }).toEqual({ code: status, out: "", err: `org: ${message}` });
    expect(listing()).toEqual(before);
  });

  it("a truncated transcript: what it holds is shown, each experiment past it is unknown, " +
    "and why is said", async () => {
    const { code, out, err } = await org("c-1");
    expect(code).toBe(0);
    const truncation = new RegExp(
      /^org: c-1's transcript: sessions\/2026\/12\/05\/rollout-x\.jsonl: /.source +
      /truncated — it ends in a half-written line \(\d+ characters\)$/.source,
    );
    expect(err).toMatch(truncation);
    const unknown = new RegExp(
      /^── 2026-12-05 05:15:00 3333333 discard 0\.950000 "halve lr" · \S+\n {2}/.source +
      /trace unknown: sessions\/.*truncated/.source,
    );
    expect(out).toMatch(unknown);
  });
});
