// state/agents/<agent>/usage.json through its owner: read back as written; a damaged one shows as unknown, with why.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { filesPort } from "../../../src/adapters/fs/files-port.js";
import { readUsageViews, writeUsageSummary, type UsageSummary } from "../../../src/domain/usage/summary.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";

let state: string | undefined;
afterEach(() => {
  if (state) removeDir(state);
  state = undefined;
});

const COUNTS = { input: 1000, output: 40, cacheRead: 3, cacheWrite: 2 };
const SUMMARY: UsageSummary = {
  updatedAt: "2026-01-07T10:00:00.000Z", cli: "Claude Code", replies: 1, ...COUNTS, costUsd: 0.02, priced: true,
  byModel: { "claude-opus-5-5": COUNTS },
};
const UNREAD = "not read yet: the daemon reads each agent's transcripts every few seconds";

test("a summary is written and viewed as written; none yet is unknown, with why", async () => {
  state = makeTempDir("org-usage-summary-");
  expect((await readUsageViews(filesPort, state, ["c-1"])).get("c-1")).toMatchObject({ unknown: UNREAD });
  await writeUsageSummary(filesPort, state, "c-1", SUMMARY);
  expect((await readUsageViews(filesPort, state, ["c-1"])).get("c-1"))
    .toEqual({ ...COUNTS, costUsd: 0.02, priced: true });
});

test.each([
  ["cut short", '{"updatedAt": "2026'],
  ["with counts of another type", JSON.stringify({ ...SUMMARY, output: "40" })],
  ["with a model's counts missing", JSON.stringify({ ...SUMMARY, byModel: { opus: { input: 1 } } })],
])("a summary %s is unknown, with why, and is left as it was", async (_, text) => {
  state = makeTempDir("org-usage-summary-");
  mkdirSync(join(state, "agents", "c-1"), { recursive: true });
  writeFileSync(join(state, "agents", "c-1", "usage.json"), text);
  expect((await readUsageViews(filesPort, state, ["c-1"])).get("c-1"))
    .toEqual({ ...COUNTS, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, costUsd: null, priced: false,
      unknown: "usage.json does not parse" });
  expect(readFileSync(join(state, "agents", "c-1", "usage.json"), "utf8")).toBe(text);
});
