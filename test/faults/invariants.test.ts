import { describe, expect, test } from "vitest";
import { checkInvariants, findLostExperiments, type OrgFacts } from "./invariants.js";

const BASE = "b".repeat(40);
const row = (agent: string, commit: string, status: string, description: string) => ({
  agent,
  commit: commit.slice(0, 7),
  status,
  description,
});
const verdict = (id: string, agent: string, commit: string, description: string, kind: string) => ({
  id,
  agent,
  commit,
  description,
  verdict: kind,
});
const good = (): OrgFacts => ({
  baseCommit: BASE,
  rows: [
    row("r-1", BASE, "keep", "baseline"),
    row("r-1", "c1".repeat(20), "keep", "lr up"),
    row("r-1", "c2".repeat(20), "discard", "lr down"),
  ],
  verdicts: [
    verdict("1-r-1-baseline", "r-1", BASE, "baseline", "baseline"),
    verdict("2-r-1-c1", "r-1", "c1".repeat(20), "lr up", "keep"),
    verdict("3-r-1-c2", "r-1", "c2".repeat(20), "lr down", "discard"),
  ],
  runs: ["1-r-1-baseline", "2-r-1-c1", "3-r-1-c2"],
  queued: [],
  branches: [{ agent: "r-1", head: "c1".repeat(20), commits: ["c1".repeat(20)] }],
  leftovers: [],
});

describe("the faults invariants", () => {
  test("a clean history passes", () => {
    expect(checkInvariants(good())).toEqual([]);
  });

  test("a doubled row, a lost run, a discarded commit left on the branch and a leftover process are each named", () => {
    const facts = good();
    facts.rows.push(row("r-1", "c2".repeat(20), "discard", "lr down"));
    facts.runs.push("4-r-1-c3");
    facts.branches[0]!.commits.unshift("c2".repeat(20));
    facts.leftovers.push("tmux server on socket org-x");
    expect(checkInvariants(facts)).toEqual([
      "experiment 3-r-1-c2 has 2 rows in results.tsv, not 1",
      "run 4-r-1-c3 reached the verifier but has neither a verdict nor a queue entry: lost",
      "r-1's branch still holds c2c2c2c, which results.tsv says was not kept",
      "left running after org down: tmux server on socket org-x",
    ]);
  });

  test("a verdict without its row, a row without its verdict, two baselines and a lost kept commit are named", () => {
    const facts = good();
    facts.rows.splice(2, 1);
    facts.rows.push(row("r-1", BASE, "keep", "baseline"), row("r-2", "d".repeat(40), "crash", "boom"));
    facts.branches[0] = { agent: "r-1", head: BASE, commits: [] };
    expect(checkInvariants(facts)).toEqual([
      "experiment 1-r-1-baseline has 2 rows in results.tsv, not 1",
      "experiment 3-r-1-c2 has 0 rows in results.tsv, not 1",
      'row r-2 ddddddd crash "boom" answers no experiment',
      "r-1 has 2 baseline rows",
      "r-1's branch lost its kept commit c1c1c1c",
    ]);
  });

  test("an agent that left its kept commit for another's keep " +
    "(the org best) lost nothing; a branch on neither did", () => {
    const facts = good();
    facts.rows.push(
      row("r-2", "e1".repeat(20), "keep", "wd down"),
      row("org", "e2".repeat(20), "keep", "stack e1e1e1e onto c1c1c1c"),
    );
    facts.verdicts.push(
      verdict("4-r-2-e1", "r-2", "e1".repeat(20), "wd down", "keep"),
      verdict("5-org-e2", "org", "e2".repeat(20), "stack e1e1e1e onto c1c1c1c", "keep"),
    );
    facts.runs.push("4-r-2-e1", "5-org-e2");
    facts.branches[0] = { agent: "r-1", head: "e2".repeat(20), commits: ["e2".repeat(20), "e1".repeat(20)] };
    expect(checkInvariants(facts)).toEqual([]);
    facts.branches[0] = { agent: "r-1", head: "e3".repeat(20), commits: ["e3".repeat(20)] };
    expect(checkInvariants(facts)).toEqual(["r-1's branch lost its kept commit c1c1c1c"]);
  });

  test("commits past the kept one on their way to the verifier are fine; a judged one left on top is not", () => {
    const facts = good();
    facts.queued.push({ id: "5-r-1-c4", agent: "r-1", commit: "c4".repeat(20) });
    facts.branches[0]!.commits.unshift("c5".repeat(20), "c4".repeat(20));
    expect(checkInvariants(facts)).toEqual([]);
    facts.rows.push(row("r-1", "c5".repeat(20), "discard", "x"));
    facts.verdicts.push(verdict("6-r-1-c5", "r-1", "c5".repeat(20), "x", "discard"));
    expect(checkInvariants(facts)).toEqual(["r-1's branch still holds c5c5c5c, which results.tsv says was not kept"]);
  });

  test("a commit submitted again is answered from its one row; " +
    "the same commit judged twice under two descriptions is named", () => {
    const facts = good();
    facts.verdicts.push(verdict("4-r-1-c1", "r-1", "c1".repeat(20), "idea after a restart", "keep"));
    expect(checkInvariants(facts)).toEqual([]);
    facts.rows.push(row("r-1", "c1".repeat(20), "discard", "idea after a restart"));
    expect(checkInvariants(facts)).toEqual([
      "experiment 2-r-1-c1 has 2 rows in results.tsv, not 1",
      "experiment 4-r-1-c1 has 2 rows in results.tsv, not 1",
    ]);
  });

  test("a row whose request is still queued (the daemon died before clearing it) answers that request", () => {
    const facts = good();
    facts.rows.push(row("r-1", "c4".repeat(20), "discard", "y"));
    facts.queued.push({ id: "5-r-1-c4", agent: "r-1", commit: "c4".repeat(20) });
    facts.branches[0]!.commits.unshift("c4".repeat(20));
    expect(checkInvariants(facts)).toEqual([]);
  });

  test("lost experiments are the judged ones without a row and the runs with neither verdict nor queue entry", () => {
    const facts = good();
    expect(findLostExperiments(facts)).toEqual([]);
    facts.rows.splice(1, 1);
    facts.runs.push("4-r-1-c3");
    expect(findLostExperiments(facts)).toEqual(["2-r-1-c1", "4-r-1-c3"]);
  });
});
