// The meta agent's reload requests and the daemon's replies through their owner, flows/reload/requests.ts.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import {
  answerMetaRequest, listMetaRequests, submitMetaRequest, waitForMetaReply,
} from "../../../src/flows/reload/requests.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";

let state: string | undefined;
afterEach(() => {
  if (state) removeDir(state);
  state = undefined;
});

// No daemon.json: a wait that finds no reply ends at once with the daemon's absence.
const paths = (dir: string) => ({ state: dir, daemon: join(dir, "daemon.json") });
const DOWN = "the org went down while your request waited; it stays queued and runs at the next `org up`";

test("a request is listed, answered and its reply read once; no reply is the daemon's absence", async () => {
  state = makeTempDir("org-meta-requests-");
  expect(await listMetaRequests(state)).toEqual([]);
  const request = await submitMetaRequest(state, "meta-1", new Date("2026-01-07T10:00:00.000Z"));
  expect(await listMetaRequests(state)).toEqual([request]);
  await expect(waitForMetaReply(paths(state), request.id)).rejects.toThrow(DOWN);
  await answerMetaRequest(state, request, { outcome: "applied", lines: ["reloaded"] });
  expect(await listMetaRequests(state)).toEqual([]);
  expect(await waitForMetaReply(paths(state), request.id)).toEqual({ outcome: "applied", lines: ["reloaded"] });
  expect(existsSync(join(state, "reload-replies", `${request.id}.json`))).toBe(false);
});

test("a request of another shape is skipped and left where it is", async () => {
  state = makeTempDir("org-meta-requests-");
  mkdirSync(join(state, "reload-requests"));
  writeFileSync(join(state, "reload-requests", "a.json"), '{"id": "a", "agent": 7, "at": "x"}');
  writeFileSync(join(state, "reload-requests", "b.json"), '{"id": "b", "agent"');
  expect(await listMetaRequests(state)).toEqual([]);
  expect(readFileSync(join(state, "reload-requests", "b.json"), "utf8")).toBe('{"id": "b", "agent"');
});

test.each([
  ["cut short", '{"outcome": "appl', "cut short or not JSON"],
  ["of another outcome", '{"outcome": "maybe", "lines": []}', "of another shape"],
])("a reply %s is an error that names the file, left as it was", async (_, text, why) => {
  state = makeTempDir("org-meta-requests-");
  mkdirSync(join(state, "reload-replies"));
  const file = join(state, "reload-replies", "r-1.json");
  writeFileSync(file, text);
  await expect(waitForMetaReply(paths(state), "r-1"))
    .rejects.toThrow(`${file} is no answer the daemon wrote (${why}) — remove it, and ask again`);
  expect(readFileSync(file, "utf8")).toBe(text);
});
