// What an admit costs the daemon is bounded: an agent's commit of 40 more parents, each a loose file that inflates
// to 1 MB and hashes to nothing (no disk spent: hard links would do), must not have the daemon's own thread inflate
// each one; the admit stops at the first. Each file's atime, set back by the agent, says whether anything read it.
import { afterEach, describe, expect, test } from "vitest";
import { IDENTITIES, teardownOrgAs, type OrgAs } from "./identities.js";
import { runAttack } from "./objects-org.js";

let org: OrgAs | undefined;
afterEach(() => {
  teardownOrgAs(org);
  org = undefined;
});

describe.each(IDENTITIES)("a commit of many forged parents as $name", (who) => {
  test("at most a few parents are read, the commit is refused, results and best stay true", async () => {
    const attacked = await runAttack(who, "parents", (made) => (org = made));
    expect(attacked.log.find((line) => line.startsWith("merge: "))).toMatch(/^merge: [0-9a-f]{40} ok$/);
    expect(attacked.log.find((line) => line.startsWith("submit: "))).toMatch(/reject: /);
    const read = attacked.log.find((line) => line.startsWith("parents read: "));
    expect(Number(/^parents read: (\d+) of 40$/.exec(read ?? "")?.[1])).toBeLessThanOrEqual(3);
    expect(attacked.best).toBe(attacked.base);
    expect(attacked.runs).toHaveLength(1);
  }, 90_000);
});
