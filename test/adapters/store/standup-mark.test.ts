// state/standup.json through its owner: read back whole; a damaged one reads as none, so the count starts afresh.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { readStandupMark, writeStandupMark } from "../../../src/adapters/store/standup-mark.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";

let state: string | undefined;
afterEach(() => {
  if (state) removeDir(state);
  state = undefined;
});

test("the last digest's mark is written and read back whole; none before the first look", async () => {
  state = makeTempDir("org-standup-");
  expect(await readStandupMark(state)).toBeUndefined();
  await writeStandupMark(state, { at: "2026-01-07T10:00:00.000Z", verdicts: 3 });
  expect(await readStandupMark(state)).toEqual({ at: "2026-01-07T10:00:00.000Z", verdicts: 3 });
});

test.each([
  ["cut short", '{"at": "2026-01-07T10'],
  ["a count of another type", '{"at": "2026-01-07T10:00:00.000Z", "verdicts": "3"}'],
  ["null", "null"],
])("a mark %s reads as none, and is left as it was", async (_, text) => {
  state = makeTempDir("org-standup-");
  writeFileSync(join(state, "standup.json"), text);
  expect(await readStandupMark(state)).toBeUndefined();
  expect(readFileSync(join(state, "standup.json"), "utf8")).toBe(text);
});
