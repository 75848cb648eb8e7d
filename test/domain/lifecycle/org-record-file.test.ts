// state/org.json through its owner: a record written is read back whole; one cut short or of another shape is an
// error that says what is wrong and how to get past it.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { afterEach, expect, test } from "vitest";
import { filesPort } from "../../../src/adapters/fs/files-port.js";
import {
  parseOrgRecordText, readOptionalOrgRecord, removeOrgRecord, writeOrgRecord,
} from "../../../src/domain/lifecycle/org-record-file.js";
import { orgPaths } from "../../../src/domain/paths.js";
import type { OrgRecord } from "../../../src/domain/state.js";
import { makeTempDir } from "../../helpers/temp-repo.js";

let root = "";
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

const record: OrgRecord = {
  version: 1, name: "t", root: "/r", repo: "/r", base: "main", baseCommit: "0".repeat(40), socket: "org-t",
  session: "t", cpuMode: true,
  agents: [{ name: "a-1", role: "a", runtime: "idle", branch: "org/t/a-1", worktree: "/w", gpu: null }],
  upAt: "2026-12-05T10:00:00.000Z",
};

test("written, read back whole; removed, absent", async () => {
  root = makeTempDir("org-record-");
  const paths = orgPaths(root);
  mkdirSync(paths.state);
  await writeOrgRecord(filesPort, paths, record);
  expect(await readOptionalOrgRecord(filesPort, root)).toEqual(record);
  await removeOrgRecord(filesPort, paths);
  expect(await readOptionalOrgRecord(filesPort, root)).toBeUndefined();
});

test.each([
  ["cut short", JSON.stringify(record).slice(0, 40), "not JSON"],
  [
    "an agent with no name", JSON.stringify({ ...record, agents: [{ role: "a" }] }),
    "agents.0.name: Invalid input: expected string, received undefined",
  ],
  [
    "a pool of names", JSON.stringify({ ...record, pool: ["gpu0"] }),
    "pool.0: Invalid input: expected number, received string",
  ],
  ["no agents", "{}", "agents: Invalid input: expected array, received undefined"],
])("a record %s is unreadable, said with its problem and the fix", async (_what, text, problem) => {
  root = makeTempDir("org-record-");
  const paths = orgPaths(root);
  mkdirSync(paths.state);
  writeFileSync(paths.orgFile, text);
  await expect(readOptionalOrgRecord(filesPort, root)).rejects.toThrow(
    `${paths.orgFile} is unreadable (not an org record: ${problem}) — run \`org down\`, then \`org up\``,
  );
});

test("a watcher's copy of the text: the record, or undefined for none, cut short or of another shape", () => {
  expect(parseOrgRecordText(JSON.stringify(record))).toEqual(record);
  expect(parseOrgRecordText(undefined)).toBeUndefined();
  expect(parseOrgRecordText("")).toBeUndefined();
  expect(parseOrgRecordText(JSON.stringify(record).slice(0, 40))).toBeUndefined();
  expect(parseOrgRecordText(JSON.stringify({ ...record, agents: "none" }))).toBeUndefined();
});
