// usage-cursors.json through its owner, the UsageStore: read back whole; a damaged one reads as none (read again).
import { readFileSync, writeFileSync } from "node:fs";
import { afterEach, expect, test } from "vitest";
import { UsageStore, type UsageCursors } from "../../../src/adapters/usage/store.js";
import { usagePaths } from "../../../src/domain/usage/summary.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";

let state: string | undefined;
afterEach(() => {
  if (state) removeDir(state);
  state = undefined;
});

const CURSOR = { offset: 120, ino: 7, lines: 3, known: true, context: { model: "opus", n: 1 } };
const CURSORS: UsageCursors = {
  files: { "/home/s.jsonl": CURSOR },
  opencodeStamp: "12:34",
};

test("the cursors are saved and loaded back whole; none before the first save", async () => {
  state = makeTempDir("org-usage-cursors-");
  const store = new UsageStore(state, "c-1");
  expect((await store.load()).cursors).toEqual({ files: {} });
  await store.save([], CURSORS);
  expect((await new UsageStore(state, "c-1").load()).cursors).toEqual(CURSORS);
});

test.each([
  ["cut short", '{"files": {"/home/s.jsonl": {"offset"'],
  ["a file's offset of another type", JSON.stringify({ files: { "/s": { ...CURSOR, offset: "x" } } })],
  ["files as a list", JSON.stringify({ files: [] })],
])("cursors %s read as none, so the transcripts are read again, and are left as they were", async (_, text) => {
  state = makeTempDir("org-usage-cursors-");
  const store = new UsageStore(state, "c-1");
  await store.save([], CURSORS);
  writeFileSync(usagePaths(state, "c-1").cursors, text);
  expect((await store.load()).cursors).toEqual({ files: {} });
  expect(readFileSync(usagePaths(state, "c-1").cursors, "utf8")).toBe(text);
});
