// What the experiment ledger's key reads, on the verifier's real loop and real git: which changes are empty, and
// which bytes make two changes different.
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { readChange } from "../../../src/adapters/git/change-key.js";
import { git } from "../../helpers/temp-repo.js";
import { verifierOrgPerTest } from "../../helpers/test-org/verifier-loop.js";

const createOrg = verifierOrgPerTest();

describe("the experiment ledger's key: what one change is", () => {
  test("an empty change and a whitespace-only one are rejected " +
    "at once with their reason, no run, the diff kept", async () => {
    const org = createOrg(["r-1"]);
    const base = org.record.baseCommit;
    const loop = org.daemon();
    await org.settle(loop);
    const empty = org.commit("r-1", {}, "nothing at all", { allowEmpty: true });
    const none = org.submit("r-1", empty, "nothing at all");
    await org.settle(loop);
    expect(org.verdictOf(none).outcome.verdict).toEqual({
      kind: "reject",
      reason: `reject: empty change: ${empty.slice(0, 7)} changes nothing against the commit it is judged on — ` +
        `make a real change, then submit it`,
    });
    const spaces = org.commit("r-1", { "value.txt": "1.0   \n\n\n" }, "reformat the value");
    const blank = org.submit("r-1", spaces, "reformat the value");
    await org.settle(loop);
    const outcome = org.verdictOf(blank).outcome;
    expect(outcome.verdict).toEqual({
      kind: "reject",
      reason: `reject: empty change: ${spaces.slice(0, 7)} changes only whitespace or blank lines against the commit ` +
        `it is judged on — make a real change, then submit it`,
    });
    expect(org.runs).toHaveLength(1);
    expect(org.rows().slice(1).map((row) => row.slice(0, 8))).toEqual([
      [empty.slice(0, 7), "0.000000", "0.0", "reject", "nothing at all", "r-1", "cpu", "0.0"],
      [spaces.slice(0, 7), "0.000000", "0.0", "reject", "reformat the value", "r-1", "cpu", "0.0"],
    ]);
    // Nothing lost: the whitespace edit is in its patch; the branch and worktree are back at the base.
    expect(readFileSync(outcome.patch!, "utf8")).toContain("+1.0   ");
    expect(org.branch("r-1")).toBe(base);
    expect(readFileSync(`${org.worktree("r-1")}/value.txt`, "utf8")).toBe("1.0\n");
    expect(org.entries().map((entry) => [entry.commit, entry.status, entry.change])).toEqual([
      [empty, "reject", undefined],
      [spaces, "reject", undefined],
    ]);
  });

  test("binary changes: two different edits of a binary file both run; " +
    "the first one made again is answered", async () => {
    const org = createOrg(["r-1"]);
    const base = org.record.baseCommit;
    const loop = org.daemon();
    await org.settle(loop);
    const x = org.commit("r-1", { "weights.bin": Buffer.from([0, 1, 3, 10]) }, "weights x");
    org.submit("r-1", x, "weights x");
    await org.settle(loop);
    const y = org.commit("r-1", { "weights.bin": Buffer.from([0, 1, 4, 10]) }, "weights y");
    const second = org.submit("r-1", y, "weights y");
    await org.settle(loop);
    expect(org.runs).toHaveLength(3);
    expect(org.verdictOf(second).outcome.verdict.reason).not.toContain("already tried");
    const [keyX, keyY] = org.entries().map((entry) => entry.change!);
    expect(keyX!.tree).toBe(keyY!.tree);
    expect(keyX!.patchId).not.toBe(keyY!.patchId);
    const again = org.commit("r-1", { "weights.bin": Buffer.from([0, 1, 3, 10]) }, "weights x again");
    const third = org.submit("r-1", again, "weights x again");
    await org.settle(loop);
    expect(org.runs).toHaveLength(3);
    expect(org.verdictOf(third).outcome.verdict.reason).toMatch(
      new RegExp(`^discard: already tried as ${x.slice(0, 7)} by r-1: discard, score 1\\.000000; `),
    );
    expect(org.branch("r-1")).toBe(base);
  });

  test("the key reads a diff's bytes: two latin-1 edits that differ in one byte are different changes", async () => {
    const org = createOrg(["r-1"]);
    const base = org.record.baseCommit;
    const e9 = org.commit("r-1", { "value.txt": Buffer.from([0x31, 0xe9, 0x0a]) }, "e9");
    git(org.worktree("r-1"), ["reset", "-q", "--hard", base]);
    const e8 = org.commit("r-1", { "value.txt": Buffer.from([0x31, 0xe8, 0x0a]) }, "e8");
    const [a, b] = [await readChange(org.root, base, e9), await readChange(org.root, base, e8)];
    expect(a.kind === "change" && b.kind === "change" && a.key.patchId !== b.key.patchId).toBe(true);
    // A new empty file has no hunk: still a change, and another file's name is another change.
    const named = async (name: string) => {
      git(org.worktree("r-1"), ["reset", "-q", "--hard", base]);
      const change = await readChange(org.root, base, org.commit("r-1", { [name]: "" }, `add ${name}`));
      return change.kind === "change" ? change.key.patchId : change.kind;
    };
    const [first, other] = [await named("a.txt"), await named("b.txt")];
    expect(first).toMatch(/^([0-9a-f]{40}|diff-sha256:[0-9a-f]{64})$/);
    expect(other).not.toBe(first);
  });
});
