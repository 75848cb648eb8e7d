// The verifier's objects are its own: an agent writes the loose object of a blob before the file exists (its worse
// value.txt's name, holding a better value), then submits; the verifier's checked fetch refuses it, and nothing runs.
import { afterEach, describe, expect, test } from "vitest";
import { IDENTITIES, teardownOrgAs, type OrgAs } from "./identities.js";
import { runAttack } from "./objects-org.js";

let org: OrgAs | undefined;
afterEach(() => {
  teardownOrgAs(org);
  org = undefined;
});

describe.each(IDENTITIES)("a pre-seeded blob as $name", (who) => {
  test("the commit's value.txt reads 0.5 in the shared store, but its name is 2.0's: " +
    "reject, told in log.md, results and best stay true", async () => {
    const attacked = await runAttack(who, "preseed", (made) => (org = made));
    expect(attacked.log[0]).toMatch(/^preseeded [0-9a-f]{40}: 0\.5$/);
    const submit = attacked.log.find((line) => line.startsWith("submit: "))!;
    expect(submit).toMatch(
      new RegExp(
        /reject: [0-9a-f]{7} could not be taken into the verifier's own object store: .*did not receive /.source +
        /expected object [0-9a-f]{40}.* — an object in the repo's shared store is missing or does not match /.source +
        /its name/.source,
      ),
    );
    expect(attacked.rows.map((row) => [row[1], row[3], row[4]])).toEqual([
      ["1.000000", "keep", "baseline"],
      ["0.000000", "reject", "worse: value 2.0"],
    ]);
    expect(attacked.best).toBe(attacked.base);
    // Only the baseline ran, with the real scorer; the refusal is an incident in log.md.
    expect(attacked.runs).toHaveLength(1);
    expect(attacked.runs[0]).toBe("scorer: real\nval_bpb: 1.0\n");
    expect(attacked.logMd).toMatch(
      /^## \[[^\]]+\] tamper \| [0-9a-f]{7} could not be taken into the verifier's own object store/m,
    );
  }, 90_000);
});
