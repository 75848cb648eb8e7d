// state/verifier/protected.json through its owner: kept while it covers the base; damaged, recorded again.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { recordProtectedHashes } from "../../../src/adapters/verifier/protected-check.js";
import { createRepo, git, makeTempDir, removeDir } from "../../helpers/temp-repo.js";

let dirs: string[] = [];
afterEach(() => {
  dirs.forEach(removeDir);
  dirs = [];
});

function setUp(): { store: string; hashes: string; base: string } {
  const store = createRepo({ "eval.py": "print(1)\n", "train.py": "x = 1\n" });
  const state = makeTempDir("org-protected-");
  dirs.push(store, state);
  return { store, hashes: join(state, "protected.json"), base: git(store, ["rev-parse", "HEAD"]).trim() };
}

test("recorded from the store when missing, then read back as written while it covers the base and rules", async () => {
  const { store, hashes, base } = setUp();
  const first = await recordProtectedHashes({ store, hashes, base, rules: ["eval.py"] });
  expect(Object.keys(first.rules["eval.py"]!)).toEqual(["eval.py"]);
  expect(JSON.parse(readFileSync(hashes, "utf8"))).toEqual(first);
  // Recorded by hand at another time: read back, not recorded again.
  writeFileSync(hashes, JSON.stringify({ ...first, recordedAt: "2020-01-01T00:00:00.000Z" }));
  expect((await recordProtectedHashes({ store, hashes, base, rules: ["eval.py"] })).recordedAt)
    .toBe("2020-01-01T00:00:00.000Z");
});

test.each([
  ["cut short", '{"base": "'],
  ["a file without its blob", (base: string) => JSON.stringify({
    base, recordedAt: "2020-01-01T00:00:00.000Z", rules: { "eval.py": { "eval.py": { mode: "100644" } } },
  })],
])("a record %s is recorded again from the verifier's store", async (_, damaged) => {
  const { store, hashes, base } = setUp();
  writeFileSync(hashes, typeof damaged === "string" ? damaged : damaged(base));
  const record = await recordProtectedHashes({ store, hashes, base, rules: ["eval.py"] });
  const blob = expect.stringMatching(/^[0-9a-f]{40}$/) as string;
  expect(record.rules["eval.py"]!["eval.py"]).toEqual({ mode: "100644", blob });
  expect(JSON.parse(readFileSync(hashes, "utf8"))).toEqual(record);
});
