// The verifier's objects are its own: an agent rewrites the protected scorer's blob in the repo's shared object
// store, then submits a worse change; the verifier runs the real
// scorer from its own store, and the worse change is discarded.
import { afterEach, describe, expect, test } from "vitest";
import { IDENTITIES, teardownOrgAs, type OrgAs } from "./identities.js";
import { runAttack } from "./objects-org.js";

let org: OrgAs | undefined;
afterEach(() => {
  teardownOrgAs(org);
  org = undefined;
});

describe.each(IDENTITIES)("a rewritten scorer object as $name", (who) => {
  test("the shared store serves the fake scorer, but the verify run " +
    "uses the real one: discard, results and best stay true", async () => {
    const attacked = await runAttack(who, "rewrite", (made) => (org = made));
    // The attack itself worked: the repo's own git now reads the fake scorer under the base's name.
    expect(attacked.log[0]).toMatch(/^rewrote score\.sh [0-9a-f]{40}: echo "scorer: fake"$/);
    expect(attacked.log.find((line) => line.startsWith("submit: "))).toContain(
      "discard: val_bpb 2.0000 not better than best 1.0000",
    );
    expect(attacked.rows.map((row) => [row[1], row[3], row[4]])).toEqual([
      ["1.000000", "keep", "baseline"],
      ["2.000000", "discard", "worse: value 2.0"],
    ]);
    expect(attacked.best).toBe(attacked.base);
    // Both runs, the baseline's and the candidate's, ran the real scorer.
    expect(attacked.runs).toHaveLength(2);
    for (const run of attacked.runs) expect(run).toMatch(/^scorer: real\n/);
  }, 90_000);
});
