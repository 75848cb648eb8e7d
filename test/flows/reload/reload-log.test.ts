// state/reload.json through its owner: read back whole; a damaged one reads as none, so `org status` warns of nothing.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { markMetaApplied, readReloadRecord, recordReload } from "../../../src/flows/reload/reload-log.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";

let state: string | undefined;
afterEach(() => {
  if (state) removeDir(state);
  state = undefined;
});

const REJECTED = {
  at: "2026-01-07T10:00:00.000Z", by: "daemon", outcome: "rejected" as const, problems: ["org.yaml:3:1: bad"],
  actions: [],
};

test("a reload's outcome is written and read back whole, with the meta clock; none before any reload", async () => {
  state = makeTempDir("org-reload-log-");
  expect(await readReloadRecord(state)).toBeUndefined();
  await recordReload(state, REJECTED, { title: "org.yaml rejected" });
  expect(await readReloadRecord(state)).toEqual(REJECTED);
  await markMetaApplied(state, "2026-01-07T10:01:00.000Z");
  expect(await readReloadRecord(state)).toEqual({ ...REJECTED, lastMetaAt: "2026-01-07T10:01:00.000Z" });
});

test("one bad save seen by the daemon and `org reload` at the same moment is logged once", async () => {
  state = makeTempDir("org-reload-log-");
  const title = ": the edit is rejected; nothing changed";
  await Promise.all(["daemon", "org reload"].map((by) =>
    recordReload(state!, { ...REJECTED, by }, { title: `${by}${title}`, body: REJECTED.problems[0] })));
  const log = readFileSync(join(state, "log.md"), "utf8");
  expect(log.split(`${title}\n${REJECTED.problems[0]}\n`)).toHaveLength(2);
  expect(readdirSync(state).sort()).toEqual(["log.md", "reload.json"]);
});

test.each([
  ["cut short", '{"at": "2026-01-07T10:00'],
  ["of another outcome", JSON.stringify({ ...REJECTED, outcome: "maybe" })],
  ["with problems that are no list", JSON.stringify({ ...REJECTED, problems: "org.yaml:3:1: bad" })],
])("a record %s reads as none, and is left as it was", async (_, text) => {
  state = makeTempDir("org-reload-log-");
  writeFileSync(join(state, "reload.json"), text);
  expect(await readReloadRecord(state)).toBeUndefined();
  expect(readFileSync(join(state, "reload.json"), "utf8")).toBe(text);
});
