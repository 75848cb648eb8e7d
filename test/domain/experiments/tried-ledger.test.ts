// The experiment ledger's pure parts: its lines, the answer a change gets, the list `org tried` shows.
import { describe, expect, test } from "vitest";
import { decideTried } from "../../../src/domain/experiments/tried-answer.js";
import { formatTriedEntry, parseTriedLedger, type TriedEntry } from "../../../src/domain/experiments/tried-ledger.js";
import { selectTried, summarizeDuplicates } from "../../../src/domain/experiments/tried-list.js";

const A = "a".repeat(40);
const B = "b".repeat(40);
const C = "c".repeat(40);
const KEY = { patchId: "1".repeat(40), tree: "2".repeat(40) };

function entry(overrides: Partial<TriedEntry>): TriedEntry {
  return {
    commit: A, agent: "r-1", description: "raise the lr", status: "discard", metric: 1.5, delta: 0.5,
    reason: "discard: worse", seconds: 300, time: "2026-04-02T10:00:00.000Z", change: KEY, ...overrides,
  };
}

const decide = (entries: TriedEntry[], overrides: Partial<Parameters<typeof decideTried>[0]> = {}) =>
  decideTried({
    commit: B, agent: "r-2", description: "lr up", change: { kind: "change", key: KEY }, entries, best: { metric: 1.2 },
    metricName: "val_bpb", goal: "minimize", ...overrides,
  });

describe("parseTriedLedger", () => {
  test("round-trips entries; blank lines are no problem", () => {
    const entries = [
      entry({}), entry({ commit: B, status: "crash", metric: undefined, delta: undefined, change: undefined }),
    ];
    expect(parseTriedLedger(`${entries.map(formatTriedEntry).join("\n\n")}\n`, "state/tried.jsonl")).toEqual({
      entries,
      problems: [],
    });
  });

  test("every broken line is named with file and line and skipped; the rest parse", () => {
    const text = [
      formatTriedEntry(entry({})), "garbage", JSON.stringify({ ...entry({}), status: "maybe" }),
      JSON.stringify({ ...entry({}), seconds: -1 }), `${formatTriedEntry(entry({ commit: C }))}`, '{"commit":"',
    ].join("\n");
    const parsed = parseTriedLedger(text, "state/tried.jsonl");
    expect(parsed.entries.map((one) => one.commit)).toEqual([A, C]);
    expect(parsed.problems).toEqual([
      "state/tried.jsonl:2: not an experiment-ledger entry: not a JSON object — "
        + "the line is skipped; fix it or delete it",
      expect.stringMatching(
        new RegExp(/^state\/tried\.jsonl:3: not an experiment-ledger entry: status: .+ — the line is skipped; /.source
          + /fix it or delete it$/.source),
      ),
      expect.stringMatching(
        new RegExp(/^state\/tried\.jsonl:4: not an experiment-ledger entry: seconds: .+ — the line is skipped; /.source
          + /fix it or delete it$/.source),
      ),
      "state/tried.jsonl:6: not an experiment-ledger entry (the last line has no newline: cut short by a write that "
        + "did not finish?): not a JSON object — the line is skipped; fix it or delete it",
    ]);
  });
});

describe("decideTried", () => {
  test("no change at all, or only whitespace: a reject with its reason", () => {
    expect(decide([], { change: { kind: "empty", whitespace: false } })).toMatchObject({
      kind: "answer", status: "reject", description: "lr up",
      verdict: {
        kind: "reject",
        reason: `reject: empty change: bbbbbbb changes nothing against the commit it is judged on — `
          + `make a real change, then submit it`,
      },
    });
    expect(decide([], { change: { kind: "empty", whitespace: true } }).reason).toContain(
      "changes only whitespace or blank lines",
    );
  });

  test("a change not judged on this tree runs; the same patch on another tree is another experiment", () => {
    expect(decide([]).kind).toBe("run");
    expect(decide([entry({ change: { ...KEY, tree: "3".repeat(40) } })]).kind).toBe("run");
    expect(decide([entry({ change: undefined })]).kind).toBe("run");
  });

  test("a discard is answered as a discard with its metric, the delta against this agent's best", () => {
    const decision = decide([entry({})]);
    expect(decision).toEqual({
      kind: "answer", status: "discard", description: "duplicate of aaaaaaa by r-1: raise the lr", original: entry({}),
      reason: "discard: already tried as aaaaaaa by r-1: discard, val_bpb 1.500000; "
        + "not run again (300.0s of GPU time saved; `org tried` lists every idea tried)",
      verdict: { kind: "discard", metric: 1.5, delta: 1.5 - 1.2, reason: decision.reason },
    });
  });

  test("the very commit another agent kept, adopted by a merge: a keep here when it beats this "
    + "agent's best, with no run", () => {
    const adopted = decide([entry({ commit: B, status: "keep", metric: 0.9 })]);
    expect(adopted).toMatchObject({
      kind: "answer", status: "keep", description: "adopt bbbbbbb kept by r-1: raise the lr",
      verdict: { kind: "keep", metric: 0.9 },
    });
    expect(adopted.reason).toBe("keep: adopted bbbbbbb, kept by r-1 with val_bpb 0.900000; "
      + "not run again (300.0s of GPU time saved; `org tried` lists every idea tried)");
    // Not better than this agent's own best: no keep, it goes back as for a discard.
    expect(decide([entry({ commit: B, status: "keep", metric: 0.9 })], { best: { metric: 0.8 } })).toMatchObject({
      kind: "answer",
      status: "discard",
    });
  });

  test("a keep is the original agent's: a discard here, pointing at the commit to merge", () => {
    expect(decide([entry({ status: "keep", metric: 0.9 })]).reason).toBe(
      "discard: already tried as aaaaaaa by r-1: keep, val_bpb 0.900000 — it is kept on r-1's branch: "
        + "merge aaaaaaa to build on it; not run again (300.0s of GPU time saved; `org tried` lists every idea tried)",
    );
  });

  test("a crash and a reject are answered as themselves", () => {
    expect(decide([entry({ status: "crash", metric: undefined, seconds: 12 })])).toMatchObject({
      status: "crash",
      verdict: {
        kind: "crash",
        reason: "crash: already tried as aaaaaaa by r-1: crash; not run again (12.0s of GPU time saved; "
          + "`org tried` lists every idea tried)",
      },
    });
    expect(decide([entry({ status: "reject", metric: undefined })])).toMatchObject({
      status: "reject",
      verdict: { kind: "reject" },
    });
  });

  test("an answer from a duplicate whose original line is lost names the original; "
    + "a measured entry without its metric is not an answer", () => {
    const duplicate = entry({
      commit: C, agent: "r-3", seconds: 0, description: "duplicate of aaaaaaa by r-1: raise the lr",
      duplicateOf: { commit: A, agent: "r-1", status: "discard", description: "raise the lr", seconds: 300 },
    });
    expect(decide([duplicate])).toMatchObject({
      description: "duplicate of aaaaaaa by r-1: raise the lr",
      reason: expect.stringContaining(
        "already tried as aaaaaaa by r-1: discard, val_bpb 1.500000; not run again (300.0s",
      ),
    });
    expect(decide([entry({ metric: undefined })]).kind).toBe("run");
  });

  test("the agent's own entry of this commit is its record, not an original; "
    + "another agent's same commit is one", () => {
    expect(decide([entry({ commit: B, agent: "r-2" })]).kind).toBe("run");
    expect(decide([entry({ commit: B, agent: "r-1" })]).kind).toBe("answer");
  });

  test("a discard within the noise band k·σ is answered as inconclusive, never run again; beyond the band, "
    + "or with no σ, as a plain discard", () => {
    const close = entry({ delta: -0.05 });
    expect(decide([close], { noise: 0.1 }).reason).toBe("discard: already tried as aaaaaaa by r-1: discard, "
      + "val_bpb 1.500000 — within the noise (|Δ| 0.0500 ≤ k·σ 0.100): inconclusive, not proof that it does not help; "
      + "try it together with another change; not run again (300.0s of GPU time saved; "
      + "`org tried` lists every idea tried)");
    expect(decide([entry({ delta: 0.1 })], { noise: 0.1 }).reason).toContain(
      "within the noise (|Δ| 0.100 ≤ k·σ 0.100)",
    );
    for (const plain of [
      decide([entry({ delta: 0.5 })], { noise: 0.1 }), decide([close]), decide([close], { noise: 0 }),
    ]) {
      expect(plain).toMatchObject({ kind: "answer", status: "discard" });
      expect(plain.reason).not.toContain("within the noise");
    }
    // Two judgments (the ledger was off for a while):
    // the latest answers, a later keep over the noisy discard before it.
    const again = entry({ commit: C, agent: "r-3", delta: 0.02, metric: 1.22, time: "2026-04-02T10:30:00.000Z" });
    expect(decide([close, again], { noise: 0.1 })).toMatchObject({
      kind: "answer",
      original: again,
      reason: expect.stringContaining("already tried as ccccccc by r-3: discard, val_bpb 1.220000"),
    });
    expect(decide([close, { ...again, status: "keep", metric: 0.9 }], { noise: 0.1 }).reason).toContain(
      "already tried as ccccccc by r-3: keep",
    );
    expect(
      decide([entry({ status: "crash", metric: undefined, delta: undefined })], { noise: 0.1 }).reason,
    ).not.toContain("within the noise");
  });

  test("a row already written: only an entry written before it can have answered it", () => {
    expect(decide([entry({})], { recordedAt: "2026-04-02T09:00:00.000Z" }).kind).toBe("run");
    expect(decide([entry({})], { recordedAt: "2026-04-02T11:00:00.000Z" }).kind).toBe("answer");
  });
});

describe("selectTried and summarizeDuplicates", () => {
  const entries = [
    entry({ commit: A, description: "Raise the LR warmup", time: "2026-04-02T10:00:00.000Z" }),
    entry({ commit: B, agent: "r-2", description: "wider MLP", status: "keep", time: "2026-04-02T12:00:00.000Z" }),
    entry({
      commit: C, agent: "r-2", description: "duplicate of aaaaaaa by r-1: Raise the LR warmup", seconds: 0,
      time: "2026-04-02T11:00:00.000Z",
      duplicateOf: { commit: A, agent: "r-1", status: "discard", description: "Raise the LR warmup", seconds: 300.5 },
    }),
  ];
  test("newest first; every word must match, in any case, description, agent, verdict or commit", () => {
    expect(selectTried(entries).map((one) => one.commit)).toEqual([B, C, A]);
    expect(selectTried(entries, "lr WARMUP").map((one) => one.commit)).toEqual([C, A]);
    expect(selectTried(entries, "warmup r-2").map((one) => one.commit)).toEqual([C]);
    expect(selectTried(entries, "keep")).toEqual([entries[1]]);
    expect(selectTried(entries, "dropout")).toEqual([]);
  });
  test("duplicates answered, and the GPU seconds of their originals", () => {
    expect(summarizeDuplicates(entries)).toEqual({ answered: 1, savedSeconds: 300.5 });
    expect(summarizeDuplicates([])).toEqual({ answered: 0, savedSeconds: 0 });
  });
});
