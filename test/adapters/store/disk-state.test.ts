// state/disk.json through its owner: read back whole; a damaged one reads as none until the watch's next sweep.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { readDiskRecord, writeDiskRecord, type DiskRecord } from "../../../src/adapters/store/disk-state.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";

let state: string | undefined;
afterEach(() => {
  if (state) removeDir(state);
  state = undefined;
});

const RECORD: DiskRecord = {
  at: "2026-01-01T00:00:00.000Z", free: 10_000, floor: 1000, low: null, sweepMs: 12,
  agents: [{ agent: "r-1", bytes: 300, places: ["worktree", "home"], largest: "worktree", partial: false }],
};

test("the disk watch's look is written and read back whole; none before the watch wrote one", async () => {
  state = makeTempDir("org-disk-");
  expect(await readDiskRecord(state)).toBeUndefined();
  await writeDiskRecord(state, RECORD);
  expect(await readDiskRecord(state)).toEqual(RECORD);
});

test.each([
  ["cut short", '{"at": "2026'],
  ["a floor of another type", JSON.stringify({ ...RECORD, floor: "1 GB" })],
  ["an agent without its bytes", JSON.stringify({ ...RECORD, agents: [{ ...RECORD.agents[0], bytes: undefined }] })],
  ["null", "null"],
])("a record %s reads as none, and is left as it was", async (_, text) => {
  state = makeTempDir("org-disk-");
  writeFileSync(join(state, "disk.json"), text);
  expect(await readDiskRecord(state)).toBeUndefined();
  expect(readFileSync(join(state, "disk.json"), "utf8")).toBe(text);
});
