// A submit that lands before the verifier's first look:
// the agent's baseline still runs first, and the candidate is judged against it.
import { afterEach, describe, expect, test } from "vitest";
import { pollUntil } from "../../helpers/poll.js";
import { removeDir } from "../../helpers/temp-repo.js";
import { createVerifierOrg } from "../../helpers/test-org/verifier-loop.js";

let root: string | undefined;
afterEach(() => {
  if (root) removeDir(root);
  root = undefined;
});

describe("the verifier's first look", () => {
  test("a candidate queued before any baseline waits for its agent's baseline, then is judged against it", async () => {
    const org = createVerifierOrg({ daemon: false, agents: ["r-1"], verify: {} });
    root = org.root;
    const base = org.record.baseCommit;
    const commit = org.commit("r-1", { "value.txt": "0.5\n" }, "halve the value");
    const request = org.submit("r-1", commit, "halve the value");
    const loop = org.daemon();
    await pollUntil(async () => {
      await loop.tick(new Date());
      await loop.drain();
      return org.rows().length === 2;
    }, { what: "the baseline and the candidate", timeoutMs: 30_000 });
    expect(org.rows().map((row) => row.slice(0, 5))).toEqual([
      [base.slice(0, 7), "1.000000", "0.0", "keep", "baseline"],
      [commit.slice(0, 7), "0.500000", "0.0", "keep", "halve the value"],
    ]);
    expect(org.verdictOf(request).outcome.verdict.kind).toBe("keep");
    expect(org.runs).toHaveLength(2);
  });
});
