// state/keeper.json through its owner: read back whole; a damaged one reads as none, so a keeper still starts.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { readKeeperRecord, writeKeeperRecord } from "../../src/adapters/keeper-process.js";
import type { KeeperRecord } from "../../src/domain/lifecycle/keeper-rules.js";
import { makeTempDir, removeDir } from "../helpers/temp-repo.js";

let state: string | undefined;
afterEach(() => {
  if (state) removeDir(state);
  state = undefined;
});

const RECORD: KeeperRecord = {
  pid: 42, startedAt: "2026-01-01T00:00:00.000Z", upAt: "2026-01-01T00:00:00.000Z", daemonRestarts: 1,
  keeperRestarts: 0, quickDeaths: 0, lastRestart: { at: "2026-01-01T00:01:00.000Z", exit: "code 1", livedMs: 5 },
};

test("the keeper's record is written and read back whole; none before the keeper wrote one", async () => {
  state = makeTempDir("org-keeper-record-");
  expect(await readKeeperRecord(state)).toBeUndefined();
  await writeKeeperRecord(state, RECORD);
  expect(await readKeeperRecord(state)).toEqual(RECORD);
});

test.each([
  ["cut short", '{"pid": 42, "startedAt"'],
  ["a count of another type", JSON.stringify({ ...RECORD, daemonRestarts: "one" })],
  ["a restart without its exit", JSON.stringify({ ...RECORD, lastRestart: { at: "x", livedMs: 5 } })],
  ["not an object", "[]"],
])("a record %s reads as none, and is left as it was", async (_, text) => {
  state = makeTempDir("org-keeper-record-");
  writeFileSync(join(state, "keeper.json"), text);
  expect(await readKeeperRecord(state)).toBeUndefined();
  expect(readFileSync(join(state, "keeper.json"), "utf8")).toBe(text);
});
