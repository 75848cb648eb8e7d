// An A/B run on the verifier's real loop and real git:
// rows carry each half's program, and each half has its own ledger and best.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { AbRun } from "../../../src/domain/config-versions/ab-run-record.js";
import { git, removeDir } from "../../helpers/temp-repo.js";
import { createVerifierOrg } from "../../helpers/test-org/verifier-loop.js";

let root: string | undefined;
afterEach(() => {
  if (root) removeDir(root);
  root = undefined;
});

describe("an A/B run's verifier", () => {
  test("each half's rows carry its program; a change one half tried is run again for the other; "
    + "each half keeps its own best", async () => {
    const org = createVerifierOrg({ daemon: false, agents: ["r-1", "b-r-1"], verify: {} });
    root = org.root;
    const run: AbRun = {
      at: new Date(Date.now() - 1000).toISOString(),
      a: { version: "aaaa1111", file: "org.yaml", agents: ["r-1"] },
      b: { version: "bbbb2222", file: "other.yaml", agents: ["b-r-1"] },
    };
    writeFileSync(join(org.state, "ab.json"), JSON.stringify(run));
    const loop = org.daemon();
    await org.settle(loop);
    const base = org.record.baseCommit;
    expect([git(root, ["rev-parse", "org/t/best"]).trim(), git(root, ["rev-parse", "org/t/b-best"]).trim()]).toEqual([
      base, base,
    ]);

    const kept = org.commit("r-1", { "value.txt": "0.5\n" }, "lower the value");
    org.submit("r-1", kept, "lower the value");
    await org.settle(loop);
    // A's keep moves A's best only, and only A's agents hear of it.
    expect([git(root, ["rev-parse", "org/t/best"]).trim(), git(root, ["rev-parse", "org/t/b-best"]).trim()]).toEqual([
      kept, base,
    ]);
    expect(org.inbox("b-r-1")).not.toContain("the org's best advanced");
    const runs = org.runs.length;

    // B makes the very same change on the same tree: no free answer from A's run, it runs and B's best moves.
    const twin = org.commit("b-r-1", { "value.txt": "0.5\n" }, "lower it too");
    org.submit("b-r-1", twin, "lower it too");
    await org.settle(loop);
    expect(org.runs.length).toBeGreaterThan(runs);
    expect(git(root, ["rev-parse", "org/t/b-best"]).trim()).toBe(twin);
        // Agent, status, description, program; the two baselines ran side by side, in either order.
    const rows = org.rows().map((row) => [row[5], row[3], row[4], row[9]].join(" "));
    expect(rows.slice(0, 2).sort()).toEqual(["b-r-1 keep baseline bbbb2222", "r-1 keep baseline aaaa1111"]);
    expect(rows.slice(2)).toEqual(["r-1 keep lower the value aaaa1111", "b-r-1 keep lower it too bbbb2222"]);
  });
});
