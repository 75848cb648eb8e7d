// state/stop-waivers.json through its owner: read back whole; a damaged one waives nothing, so the org stops again.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { readWaivers, writeWaivers } from "../../../src/adapters/store/stop-watch-state.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";

let state: string | undefined;
afterEach(() => {
  if (state) removeDir(state);
  state = undefined;
});

test("the waivers are written and read back whole; none before `org up --resume` wrote any", async () => {
  state = makeTempDir("org-waivers-");
  expect(await readWaivers(state)).toEqual({});
  await writeWaivers(state, { max_experiments: 10, deadline: "2h" });
  expect(await readWaivers(state)).toEqual({ max_experiments: 10, deadline: "2h" });
});

test.each([
  ["cut short", '{"max_experiments": '],
  ["naming no stop condition", '{"max_experiment": 10}'],
  ["a list", "[10]"],
])("waivers %s waive nothing, and are left as they were", async (_, text) => {
  state = makeTempDir("org-waivers-");
  writeFileSync(join(state, "stop-waivers.json"), text);
  expect(await readWaivers(state)).toEqual({});
  expect(readFileSync(join(state, "stop-waivers.json"), "utf8")).toBe(text);
});
