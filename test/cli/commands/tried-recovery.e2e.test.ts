// The experiment ledger whatever dies when, and whatever a person did to its file: no entry lost or doubled, the org
// goes on.
import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { VerifierPort } from "../../../src/domain/experiments/verifier-port.js";
import { parseTriedLedger } from "../../../src/domain/experiments/tried-ledger.js";
import { verifierOrgPerTest } from "../../helpers/test-org/verifier-loop.js";

const createVerifierOrg = verifierOrgPerTest();
const createOrg = () => createVerifierOrg(["r-1"]);

/** The verifier's hands with results.tsv's append dying right after it wrote the row, as kill -9 would leave it. */
function dyingAfterRow(port: VerifierPort): VerifierPort {
  return { ...port, appendResult: async (header, line) => {
    await port.appendResult(header, line);
    throw new Error("killed after appendResult");
  } };
}

describe("the experiment ledger survives", () => {
  test("a daemon killed between the row and the ledger entry: the next one " +
    "computes the entry once, for a run and for an answer alike", async () => {
    const org = createOrg();
    await org.settle(org.daemon());
    const first = org.commit("r-1", { "value.txt": "1.5\n" }, "raise the value");
    org.submit("r-1", first, "raise the value");
    const killed = org.daemon(dyingAfterRow(org.port));
    await killed.tick(new Date());
    await killed.drain();
    expect(org.rows().filter((row) => row[0] === first.slice(0, 7))).toHaveLength(1);
    expect(org.entries()).toEqual([]);
    const next = org.daemon();
    await org.settle(next);
    await org.settle(next);
    expect(org.runs).toHaveLength(2);
    expect(org.rows().filter((row) => row[0] === first.slice(0, 7))).toHaveLength(1);
    const row = org.rows().find((line) => line[0] === first.slice(0, 7))!;
    expect(org.entries()).toEqual([
      expect.objectContaining({
        commit: first,
        status: "discard",
        metric: 1.5,
        seconds: Number(row[7]),
        time: row[8],
        change: expect.objectContaining({ tree: expect.any(String) }),
      }),
    ]);

    // The same change again, answered from the ledger, with the daemon killed right after the answer's row.
    const again = org.commit("r-1", { "value.txt": "1.5\n" }, "raise the value again");
    const request = org.submit("r-1", again, "raise the value again");
    const dying = org.daemon(dyingAfterRow(org.port));
    await dying.tick(new Date());
    await dying.drain();
    expect(org.rows().filter((line) => line[0] === again.slice(0, 7))).toHaveLength(1);
    expect(org.entries()).toHaveLength(1);
    await org.settle(org.daemon());
    expect(org.runs).toHaveLength(2);
    expect(
      org
        .rows()
        .filter((line) => line[0] === again.slice(0, 7))
        .map((line) => line[4]),
    ).toEqual([`duplicate of ${first.slice(0, 7)} by r-1: raise the value`]);
    expect(org.entries().map((entry) => [entry.commit, entry.duplicateOf?.commit])).toEqual([
      [first, undefined],
      [again, first],
    ]);
    expect(org.verdictOf(request).outcome.verdict.reason).toMatch(
      new RegExp(`^discard: already tried as ${first.slice(0, 7)} by r-1: discard, score 1\\.500000; not run again`),
    );
    expect(org.branch("r-1")).toBe(org.record.baseCommit);
  });

  test("a hand-edited, cut-short ledger: each broken line named once with file and line, " +
    "kept as it was, and the org answers from the lines that parse", async () => {
    const org = createOrg();
    const loop = org.daemon();
    await org.settle(loop);
    const first = org.commit("r-1", { "value.txt": "1.5\n" }, "raise the value");
    org.submit("r-1", first, "raise the value");
    await org.settle(loop);
    const broken = 'not json at all\n{"commit":"abc"}\n{"commit":"';
    appendFileSync(join(org.state, "tried.jsonl"), broken);
    const original = org.ledgerText();

    const next = org.daemon();
    const again = org.commit("r-1", { "value.txt": "1.5\n" }, "raise the value again");
    const request = org.submit("r-1", again, "raise the value again");
    await org.settle(next);
    const other = org.commit("r-1", { "value.txt": "1.7\n" }, "raise it more");
    org.submit("r-1", other, "raise it more");
    await org.settle(next);
    expect(org.verdictOf(request).outcome.verdict.reason).toContain(`already tried as ${first.slice(0, 7)} by r-1`);
    expect(org.runs).toHaveLength(3);
    expect(org.log.filter((line) => line.includes("tried.jsonl"))).toEqual([
      "verifier: state/tried.jsonl:2: not an experiment-ledger entry: not a JSON object — the line is skipped; " +
        "fix it or delete it",
      "verifier: state/tried.jsonl:3: not an experiment-ledger entry: commit: must be a full commit hash — " +
        "the line is skipped; fix it or delete it",
      "verifier: state/tried.jsonl:4: not an experiment-ledger entry (the last line has no newline: " +
        "cut short by a write that did not finish?): not a JSON object — the line is skipped; fix it or delete it",
    ]);
    // Nothing lost: the broken lines stay for a person to mend; the new entries start on lines of their own.
    const text = readFileSync(join(org.state, "tried.jsonl"), "utf8");
    expect(text.startsWith(`${original}\n`)).toBe(true);
    const parsed = parseTriedLedger(text, "state/tried.jsonl");
    expect(parsed.entries.map((entry) => entry.commit)).toEqual([first, again, other]);
    expect(parsed.problems).toHaveLength(3);
  });
});
