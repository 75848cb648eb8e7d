// state/stop.json through its owner: read back whole; a damaged one reads as none, so the stop watch decides afresh.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { readStopFile, writeStopFile } from "../../../src/adapters/store/stop-file.js";
import type { StopFile } from "../../../src/domain/experiments/stop-state.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";

let state: string | undefined;
afterEach(() => {
  if (state) removeDir(state);
  state = undefined;
});

const STOPPED = {
  kind: "stop", phase: "stopped", key: "max_experiments", reason: "10 experiments", cancel: false,
  figures: { experiments: 10 }, metAt: "2026-01-07T10:00:00.000Z", graceUntil: "2026-01-07T10:05:00.000Z",
  stoppedAt: "2026-01-07T10:06:00.000Z", report: { path: "report.html" },
} as unknown as StopFile;

test("the stop watch's decision is written and read back whole; none before its first look", async () => {
  state = makeTempDir("org-stop-file-");
  expect(await readStopFile(state)).toBeUndefined();
  const distances = [{ key: "deadline" as const, text: "1h" }];
  const running: StopFile = { kind: "running", at: "2026-01-07T10:00:00.000Z", distances };
  await writeStopFile(state, running);
  expect(await readStopFile(state)).toEqual(running);
  await writeStopFile(state, STOPPED);
  expect(await readStopFile(state)).toEqual(STOPPED);
});

test.each([
  ["cut short", '{"kind": "stop", "pha'],
  ["in a phase of another name", JSON.stringify({ ...STOPPED, phase: "paused" })],
  ["running without its distances", '{"kind": "running", "at": "2026-01-07T10:00:00.000Z"}'],
])("a stop file %s reads as none, and is left as it was", async (_, text) => {
  state = makeTempDir("org-stop-file-");
  writeFileSync(join(state, "stop.json"), text);
  expect(await readStopFile(state)).toBeUndefined();
  expect(readFileSync(join(state, "stop.json"), "utf8")).toBe(text);
});
