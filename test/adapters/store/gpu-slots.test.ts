// state/gpu-slots.json through its owner: read back whole; a damaged one reads as none, so no utilization figure.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { readCapacity, writeCapacity } from "../../../src/adapters/store/gpu-runs-file.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";

let state: string | undefined;
afterEach(() => {
  if (state) removeDir(state);
  state = undefined;
});

test("the verifier's slots are written and read back whole; none before it first started", async () => {
  state = makeTempDir("org-gpu-slots-");
  expect(await readCapacity(state)).toBeUndefined();
  await writeCapacity(state, { unit: "gpu", slots: ["0", "1"] });
  expect(await readCapacity(state)).toEqual({ unit: "gpu", slots: ["0", "1"] });
});

test.each([
  ["cut short", '{"unit": "gpu", "slots": ['],
  ["of another unit", '{"unit": "tpu", "slots": ["0"]}'],
  ["with a slot of another type", '{"unit": "gpu", "slots": [0]}'],
])("slots %s read as none, and are left as they were", async (_, text) => {
  state = makeTempDir("org-gpu-slots-");
  writeFileSync(join(state, "gpu-slots.json"), text);
  expect(await readCapacity(state)).toBeUndefined();
  expect(readFileSync(join(state, "gpu-slots.json"), "utf8")).toBe(text);
});
