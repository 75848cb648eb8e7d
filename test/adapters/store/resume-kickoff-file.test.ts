// resume-kickoff.json through its owner: read back whole; a damaged one reads as none, so no kickoff is typed.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import {
  readResumeKickoff, removeResumeKickoff, writeResumeKickoff,
} from "../../../src/adapters/store/resume-kickoff-file.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";

let state: string | undefined;
afterEach(() => {
  if (state) removeDir(state);
  state = undefined;
});

const PENDING = { pane: "%3", resumedAt: "2026-01-07T10:00:00.000Z", done: null };

test("a kickoff is written, read back whole and removed; none before a resume", async () => {
  state = makeTempDir("org-kickoff-");
  expect(await readResumeKickoff(state, "a")).toBeUndefined();
  await writeResumeKickoff(state, "a", PENDING);
  expect(await readResumeKickoff(state, "a")).toEqual(PENDING);
  const done = { ...PENDING, done: { at: "2026-01-07T10:00:05.000Z", outcome: "typed" as const } };
  await writeResumeKickoff(state, "a", done);
  expect(await readResumeKickoff(state, "a")).toEqual(done);
  await removeResumeKickoff(state, "a");
  expect(existsSync(join(state, "agents", "a", "resume-kickoff.json"))).toBe(false);
});

test.each([
  ["cut short", '{"pane": "%3", "resumedAt'],
  ["with an outcome of another kind", JSON.stringify({ ...PENDING, done: { at: "x", outcome: "maybe" } })],
  ["without its pane", JSON.stringify({ resumedAt: PENDING.resumedAt, done: null })],
])("a kickoff %s reads as none, and is left as it was", async (_, text) => {
  state = makeTempDir("org-kickoff-");
  mkdirSync(join(state, "agents", "a"), { recursive: true });
  writeFileSync(join(state, "agents", "a", "resume-kickoff.json"), text);
  expect(await readResumeKickoff(state, "a")).toBeUndefined();
  expect(readFileSync(join(state, "agents", "a", "resume-kickoff.json"), "utf8")).toBe(text);
});
