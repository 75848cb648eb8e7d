import { describe, expect, test } from "vitest";
import { BOARD_HEADER, formatBoard, parseBoard } from "../../../src/domain/claims/board.js";
import { addClaim, closeClaim, prepareIdea } from "../../../src/domain/claims/claim-edit.js";
import { settleBoard } from "../../../src/domain/claims/settle.js";
import { findNearIdeas, measureSimilarity, tokenizeIdea } from "../../../src/domain/claims/similarity.js";

const HOUR = 3_600_000;
const HEADER = "commit\tval_bpb\tmemory_gb\tstatus\tdescription\tagent\tgpu\tseconds\ttime\n";
const row = (commit: string, status: string, description: string, agent: string, time: string) =>
  `${commit}\t0.900000\t0.0\t${status}\t${description}\t${agent}\tcpu\t3.0\t${time}\n`;
const board = (...lines: string[]) => `${[...BOARD_HEADER, ...lines].join("\n")}\n`;
const at = (time: string) => new Date(time);

describe("the claims board file", () => {
  test("open and closed claims parse, and format back to the same text", () => {
    const text = board(
      "- #1 researcher-1 2026-01-07T10:00:00Z open: warmup 10% then cosine",
      "- #2 researcher-2 2026-01-07T10:05:00Z closed 2026-01-07T10:40:00Z keep a1b2c3d: lr 0.02: halve it",
      "- #3 person 2026-01-07T10:06:00Z closed 2026-01-07T11:00:00Z dropped: bigger batch",
    );
    const lines = parseBoard(text);
    expect(lines.flatMap((line) => (line.kind === "claim" ? [line.claim] : []))).toEqual([
      { id: 1, agent: "researcher-1", time: "2026-01-07T10:00:00Z", idea: "warmup 10% then cosine" },
      {
        id: 2, agent: "researcher-2", time: "2026-01-07T10:05:00Z", idea: "lr 0.02: halve it",
        closed: { reason: "verdict", time: "2026-01-07T10:40:00Z", status: "keep", commit: "a1b2c3d" },
      },
      {
        id: 3, agent: "person", time: "2026-01-07T10:06:00Z", idea: "bigger batch",
        closed: { reason: "dropped", time: "2026-01-07T11:00:00Z" },
      },
    ]);
    expect(formatBoard(lines)).toBe(text);
  });

  test("every bad entry is a problem with its line and, where readable, its id; each is kept verbatim", () => {
    const bad = [
      "garbage",
      "- #4 researcher-1 2026-01-0",
      "#5 researcher-1 2026-01-07T10:00:00Z open: no dash",
      "- #1 researcher-1 2026-01-07T10:00:00Z open: a second #1",
      "- #6 researcher-1 2026-01-07T10:00:00Z opne: typo",
      "- #7 researcher/1 2026-01-07T10:00:00Z open: a slash",
      "- #8 researcher-1 yesterday open: no time",
      "- #9 researcher-1 2026-01-07T10:00:00Z closed 2026-01-07T10:00:00Z keep XYZ: no commit",
    ];
    const text = board("- #1 researcher-1 2026-01-07T10:00:00Z open: fine", ...bad);
    const lines = parseBoard(text);
    const fix = "write it as - #<id> <agent> <time> open: <idea>, or delete the line";
    const status = "write open, or closed <time> done|dropped|expired|<verdict> <commit>";
    expect(lines.flatMap((line) => (line.kind === "bad" ? [line.problem] : []))).toEqual([
      { line: 8, reason: '"garbage" is not a claim', fix },
      {
        line: 9, id: 4, reason: 'claim #4 has no idea after ": "',
        fix: "write the idea after the colon: - #<id> <agent> <time> open: <idea>",
      },
      { line: 10, reason: '"#5 researcher-1 2026-01-07T10:00:00Z open: no dash" is not a claim', fix },
      { line: 11, id: 1, reason: "claim #1 is already on line 7", fix: "give this claim a number no other line has" },
      { line: 12, id: 6, reason: 'claim #6 has status "opne"', fix: status },
      { line: 13, id: 7, reason: 'claim #7 names no agent ("researcher/1")', fix },
      {
        line: 14, id: 8, reason: 'claim #8 has no ISO time ("yesterday")',
        fix: "write a time such as 2026-01-07T10:15:00Z after the agent",
      },
      { line: 15, id: 9, reason: 'claim #9 has status "closed 2026-01-07T10:00:00Z keep XYZ"', fix: status },
    ]);
    expect(formatBoard(lines)).toBe(text);
  });

  test("a file cut off mid-line keeps its last line, reported, and gains its newline on the next write", () => {
    const text = board("- #1 researcher-1 2026-01-07T10:00:00Z open: fine").concat("- #2 researcher-2 2026-01-07T1");
    const settled = settleBoard(text, undefined, 2 * HOUR, at("2026-01-07T10:30:00Z"));
    expect(settled.problems).toEqual([
      {
        line: 8, id: 2, reason: 'claim #2 has no idea after ": "',
        fix: "write the idea after the colon: - #<id> <agent> <time> open: <idea>",
      },
    ]);
    const added = addClaim(settled, "researcher-1", "next", at("2026-01-07T10:30:00Z"));
    // #2 is taken by the cut-off line: the new claim never reuses its number.
    expect(added.ok && formatBoard(added.lines)).toBe(`${text}\n- #3 researcher-1 2026-01-07T10:30:00Z open: next\n`);
  });

  test("a new board starts with its header", () => {
    const added = addClaim(
      settleBoard(undefined, undefined, HOUR, at("2026-01-07T10:00:00Z")),
      "person",
      "first idea",
      at("2026-01-07T10:00:00.456Z"),
    );
    expect(added.ok && formatBoard(added.lines)).toBe(board("- #1 person 2026-01-07T10:00:00Z open: first idea"));
  });
});

describe("settling claims", () => {
  const claims = board(
    "- #1 researcher-1 2026-01-07T10:00:00Z open: first",
    "- #2 researcher-1 2026-01-07T10:10:00Z open: queued behind it",
    "- #3 researcher-2 2026-01-07T10:00:00Z open: never judged",
    "- #4 researcher-2 2026-01-07T09:00:00Z closed 2026-01-07T09:30:00Z keep 1111111: judged already",
  );

  test("each verdict of an agent closes its oldest open claim made before it; "
    + "baselines and earlier verdicts close nothing", () => {
    const results = HEADER
      + row("0000000", "keep", "baseline", "researcher-1", "2026-01-07T10:20:00.000Z")
      + row("1111111", "keep", "old", "researcher-2", "2026-01-07T09:30:00.000Z")
      + row("2222222", "discard", "first", "researcher-1", "2026-01-07T10:30:00.500Z");
    const settled = settleBoard(claims, results, 2 * HOUR, at("2026-01-07T10:45:00Z"));
    expect(settled.closed).toEqual([
      {
        id: 1, agent: "researcher-1", time: "2026-01-07T10:00:00Z", idea: "first",
        closed: { reason: "verdict", time: "2026-01-07T10:30:00Z", status: "discard", commit: "2222222" },
      },
    ]);
    expect(settled.claims.filter((claim) => !claim.closed).map((claim) => claim.id)).toEqual([2, 3]);
    expect(settled.tried.map((tried) => tried.commit)).toEqual(["1111111", "2222222"]);
    // Written and read again, the verdict is used: it does not close #2 as well.
    const again = settleBoard(formatBoard(settled.lines), results, 2 * HOUR, at("2026-01-07T10:50:00Z"));
    expect(again.closed).toEqual([]);
  });

  test("a claim with no verdict within the timeout expires at claim time + timeout; "
    + "a later verdict goes to the next claim", () => {
    const results = HEADER + row("3333333", "crash", "late", "researcher-1", "2026-01-07T12:05:00.000Z");
    const settled = settleBoard(claims, results, 2 * HOUR, at("2026-01-07T12:30:00Z"));
    expect(settled.closed.map((claim) => [claim.id, claim.closed])).toEqual([
      [1, { reason: "expired", time: "2026-01-07T12:00:00Z" }],
      [2, { reason: "verdict", time: "2026-01-07T12:05:00Z", status: "crash", commit: "3333333" }],
      [3, { reason: "expired", time: "2026-01-07T12:00:00Z" }],
    ]);
  });
});

describe("closing a claim", () => {
  const settled = settleBoard(
    board(
      "- #1 researcher-1 2026-01-07T10:00:00Z open: mine",
      "- #2 researcher-2 2026-01-07T10:00:00Z open: theirs",
      "- #3 researcher-1 2026-01-07T10:00:00Z closed 2026-01-07T10:30:00Z done: over",
      "- #4 researcher-1 garbage",
    ),
    undefined, 2 * HOUR, at("2026-01-07T11:00:00Z"));
  const now = at("2026-01-07T11:00:00Z");

  test("its own agent closes it as done or dropped", () => {
    const done = closeClaim(settled, "researcher-1", "1", "done", now);
    expect(done.ok && formatBoard(done.lines).split("\n")[6]).toBe(
      "- #1 researcher-1 2026-01-07T10:00:00Z closed 2026-01-07T11:00:00Z done: mine",
    );
    expect(closeClaim(settled, "researcher-1", "#1", "dropped", now)).toMatchObject({
      ok: true,
      claim: { closed: { reason: "dropped" } },
    });
  });

  test("a claim that is not there, another agent's, already closed or on a bad line is refused with the reason", () => {
    expect(closeClaim(settled, "researcher-1", "9", "done", now)).toEqual({
      ok: false,
      reason: "there is no claim #9 — `org claims --all` lists every claim with its number",
    });
    expect(closeClaim(settled, "researcher-1", "2", "done", now)).toEqual({
      ok: false,
      reason: "claim #2 is researcher-2's, not researcher-1's — only researcher-2 may close it",
    });
    expect(closeClaim(settled, "person", "2", "dropped", now)).toEqual({
      ok: false,
      reason: "claim #2 is researcher-2's, not person's — only researcher-2 may close it",
    });
    expect(closeClaim(settled, "researcher-1", "3", "done", now)).toEqual({
      ok: false,
      reason: "claim #3 is already closed (done at 2026-01-07T10:30:00Z) — nothing to close",
    });
    expect(closeClaim(settled, "researcher-1", "4", "done", now)).toEqual({
      ok: false,
      reason: 'claim #4 is on line 10 of state/claims.md, which does not parse — fix that line first (write the idea '
        + 'after the colon: - #<id> <agent> <time> open: <idea>)',
    });
    expect(closeClaim(settled, "researcher-1", "one", "done", now)).toEqual({
      ok: false,
      reason: '"one" is not a claim id — give the number `org claims` shows, e.g. 3',
    });
  });
});

describe("ideas", () => {
  test("an idea is one line; empty or whitespace is refused, and so is a paragraph", () => {
    expect(prepareIdea("  warmup\n 10%\t then cosine ")).toEqual({ ok: true, idea: "warmup 10% then cosine" });
    for (const empty of [undefined, "", "  \n\t "]) expect(prepareIdea(empty)).toEqual({
      ok: false,
      reason: 'no idea given — say it in one line: org claim "the idea in one line"',
    });
    expect(prepareIdea("x".repeat(301))).toEqual({
      ok: false,
      reason: "the idea is 301 characters, over 300 — say it in one short line; put details in a file",
    });
  });

  test("words are lowercased, numbers kept whole, stop words dropped; similarity is Jaccard", () => {
    expect([...tokenizeIdea("Try the LR 0.02, with warmup.")]).toEqual(["lr", "0.02", "warmup"]);
    expect(measureSimilarity(tokenizeIdea("lr 0.02 warmup"), tokenizeIdea("lr 0.04 warmup"))).toBe(0.5);
    expect(measureSimilarity(tokenizeIdea("the"), tokenizeIdea("the"))).toBe(0);
  });

  test("open claims and tried ideas over the threshold are named, most similar first, "
    + "a tried idea once by its latest try", () => {
    const open = [{ id: 3, agent: "r2", time: "2026-01-07T10:00:00Z", idea: "cosine schedule with warmup" }];
    const tried = [
      {
        commit: "aaaaaaa", metric: 1, memoryGb: 0, status: "discard" as const, description: "cosine schedule warmup 5%",
        agent: "r1", gpu: null, seconds: 1, time: "t1",
      },
      {
        commit: "bbbbbbb", metric: 1, memoryGb: 0, status: "keep" as const, description: "cosine schedule warmup 5%",
        agent: "r3", gpu: null, seconds: 1, time: "t2",
      },
      {
        commit: "ccccccc", metric: 1, memoryGb: 0, status: "keep" as const, description: "bigger batch", agent: "r1",
        gpu: null, seconds: 1, time: "t3",
      },
    ];
    const near = findNearIdeas("a cosine schedule and warmup 5%", open, tried, 0.6);
    expect(
      near.map((entry) =>
        [entry.kind === "claim" ? `#${entry.claim.id}` : entry.row.commit, entry.similarity.toFixed(2)]),
    ).toEqual([["bbbbbbb", "1.00"], ["#3", "0.75"]]);
    expect(findNearIdeas("a cosine schedule and warmup 5%", open, tried, 0.8).length).toBe(1);
  });
});
