// The journal's pure parts: the chain seals and breaks where it should,
// rows and verdicts are judged against it, the org best is guarded by it.
import { describe, expect, test } from "vitest";
import { decideBest } from "../../../src/domain/experiments/best-guard.js";
import { describeJournalChange } from "../../../src/domain/experiments/incident.js";
import { checkResults, listTrustedRows, markMissingCommits } from "../../../src/domain/experiments/journal-check.js";
import {
  formatEntry, hashText, readChain, sealEntry, type JournalDraft, type JournalEntry,
} from "../../../src/domain/experiments/journal.js";
import { checkVerdict } from "../../../src/domain/experiments/verdict-check.js";

const SHA = "a".repeat(40);
const HEADER = "commit\tscore\tmemory_gb\tstatus\tdescription\tagent\tgpu\tseconds\ttime";
const ROW = `${SHA.slice(0, 7)}\t0.500000\t0.0\tkeep\thalve it\tr-1\tcpu\t1.0\t2030-01-01T00:00:00.000Z`;

function build(drafts: JournalDraft[], legacy = ""): JournalEntry[] {
  const entries: JournalEntry[] = [
    sealEntry(
      undefined,
      {
        kind: "genesis",
        payload: { results: { lines: legacy.split("\n").length - 1, sha256: hashText(legacy) }, frontier: null },
      },
      new Date("2030-01-01T00:00:00Z"),
    ),
  ];
  for (const draft of drafts) entries.push(sealEntry(entries.at(-1), draft, new Date("2030-01-01T00:00:01Z")));
  return entries;
}

const text = (entries: JournalEntry[]) => entries.map((entry) => `${formatEntry(entry)}\n`).join("");
const row = (line = ROW): JournalDraft =>
  ({ kind: "row", payload: { agent: "r-1", commit: SHA, request: "q", header: HEADER, row: line } });

describe("the chain", () => {
  test("reads back whole, and a torn last line is told apart from a break", () => {
    const entries = build([row()]);
    expect(readChain(text(entries))).toMatchObject({ entries, torn: false });
    expect(readChain(`${text(entries)}{"seq":`)).toMatchObject({ entries, torn: true, text: text(entries) });
  });

  test("a stack's frontier move, with the runs its metric is the mean of, reads back whole", () => {
    const entries = build([
      row(),
      {
        kind: "frontier",
        payload: { commit: SHA, metric: 0.5, agent: "org", at: "2030-01-01T00:00:01.000Z", runs: 2 },
      },
      row(),
    ]);
    const read = readChain(text(entries));
    expect(read.broken).toBeUndefined();
    expect(read).toMatchObject({ entries, torn: false });
  });

  test("an altered, removed or re-serialized entry breaks it at that line", () => {
    const entries = build([row(), row(ROW.replace("0.5", "0.4"))]);
    const lines = text(entries).split("\n");
    expect(readChain([lines[0], lines[1]!.replace("halve", "third"), lines[2], ""].join("\n")).broken).toEqual({
      line: 2,
      reason: "entry 1 was altered after it was sealed",
    });
    expect(readChain([lines[0], lines[2], ""].join("\n")).broken).toEqual({
      line: 2,
      reason: "seq 2 where 1 was due (an entry removed or added)",
    });
    expect(
      readChain([lines[0], JSON.stringify(JSON.parse(lines[1]!), null, 1).replace(/\n/g, ""), ""].join(
        "\n",
      )).broken?.reason,
    ).toBe("entry 1 is not written as the verifier writes it");
  });

  test("a change to the file is described against the daemon's copy", () => {
    const entries = build([row(), row()]);
    expect(describeJournalChange(entries, readChain(text(entries.slice(0, 2))), text(entries.slice(0, 2)))).toBe(
      "the journal was cut after entry 1: entries 2..2 removed",
    );
    expect(describeJournalChange(entries, readChain(""), "")).toBe(
      "the journal was emptied or deleted (it held 3 entries)",
    );
    const more = [...entries, sealEntry(entries.at(-1), row(), new Date())];
    expect(describeJournalChange(entries, readChain(text(more)), text(more))).toBe(
      "1 entries were added after entry 2 by someone other than the verifier",
    );
  });
});

describe("results.tsv against the journal", () => {
  test("journaled rows count once each; a copy, an edit or a row never journaled is tampered; "
    + "a journaled row missing is listed", () => {
    const chain = { entries: build([row(), row(ROW.replace("halve it", "again"))]) };
    const results = [
      HEADER, ROW, ROW, ROW.replace("0.500000", "0.100000"), `deadbee\t0.000001\t0.0\tkeep\tx\tr-2\tcpu\t1.0\tt`, "",
    ].join("\n");
    const checked = checkResults(results, chain);
    expect(checked.rows.map((checkedRow) => checkedRow.trust.kind)).toEqual([
      "journaled", "tampered", "tampered", "tampered",
    ]);
    expect(checked.rows.map((checkedRow) =>
      (checkedRow.trust.kind === "tampered" ? checkedRow.trust.reason : "")).slice(1)).toEqual([
      "a second copy of a row the verifier wrote once",
      "the verifier recorded aaaaaaa for r-1 otherwise: 0.500000 0.0 keep",
      "no journal entry: the verifier never judged deadbee for r-2",
    ]);
    expect(checked.missing.map(({ seq }) => seq)).toEqual([2]);
    expect(listTrustedRows(markMissingCommits(checked, new Set([SHA])))).toEqual([]);
  });

  test("rows from before the journal are legacy while they stay as they were; "
    + "with no journal at all every row is", () => {
    const legacy = `${HEADER}\n${ROW}\n`;
    expect(checkResults(legacy, { entries: build([], legacy) }).rows.map((checkedRow) =>
      checkedRow.trust.kind)).toEqual(["legacy"]);
    expect(checkResults(legacy.replace("0.5", "0.1"), { entries: build([], legacy) }).rows[0]!.trust.kind)
      .toBe("tampered");
    expect(checkResults(legacy, undefined)).toMatchObject({ unjournaled: true, rows: [{ trust: { kind: "legacy" } }] });
  });
});

describe("the org best and verdict files against the journal", () => {
  const first = "b".repeat(40);
  const second = "c".repeat(40);
  const moves = build([
    { kind: "frontier", payload: { commit: first, metric: 1, agent: "r-1", at: "t" } },
    { kind: "frontier", payload: { commit: second, metric: 0.5, agent: "r-2", at: "t" } },
  ]);

  test("at the journaled commit it holds; one move behind at start it is completed; "
    + "anywhere else it is put back", () => {
    expect(decideBest(second, moves, false).kind).toBe("hold");
    expect(decideBest(first, moves, true)).toMatchObject({ kind: "complete", commit: second });
    expect(decideBest(first, moves, false)).toMatchObject({ kind: "restore", commit: second });
    expect(decideBest("d".repeat(40), moves, true)).toMatchObject({
      kind: "restore",
      commit: second,
      reason: expect.stringContaining("a commit the verifier never judged"),
    });
    expect(decideBest(first, build([]), false)).toMatchObject({ kind: "restore", commit: undefined });
  });

  test("a verdict file counts only as one of the texts journaled for its id", () => {
    const written = '{"id":"x"}\n';
    const chain = {
      entries: build([
        {
          kind: "verdict",
          payload: { id: "2030-01-01T00-00-02-000Z-r-1-aaaaaaa", commit: SHA, sha256: hashText(written) },
        },
      ]),
    };
    expect(checkVerdict("2030-01-01T00-00-02-000Z-r-1-aaaaaaa", written, chain).kind).toBe("journaled");
    expect(checkVerdict("2030-01-01T00-00-02-000Z-r-1-aaaaaaa", '{"id":"y"}\n', chain).kind).toBe("tampered");
    expect(checkVerdict("2030-01-01T00-00-03-000Z-r-1-bbbbbbb", written, chain).kind).toBe("tampered");
    expect(checkVerdict("2029-12-31T00-00-00-000Z-r-1-bbbbbbb", written, chain).kind).toBe("legacy");
    expect(checkVerdict("anything", written, undefined).kind).toBe("legacy");
  });
});
