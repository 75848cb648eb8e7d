// What a killed daemon left is ended by its record (pid and
// start time), never by name, and only when its daemon is gone.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import {
  CHILD_TOKEN_ENV, ChildRecords, endLeftChildren, endOrphanedChildren, type ChildRecord,
} from "../../src/adapters/child-records.js";
import { readStartTicks } from "../../src/adapters/process.js";
import { pollUntil } from "../helpers/poll.js";
import { isRunning } from "../helpers/processes.js";
import { makeTempDir, removeDir } from "../helpers/temp-repo.js";

let dir: string | undefined;
const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.pid && isRunning(child.pid)) process.kill(-child.pid, "SIGKILL");
  if (dir) removeDir(dir);
  dir = undefined;
});

/** A process group of its own with a worker inside, as a verify run is. */
function startGroup(env: Record<string, string> = {}): number {
  const child = spawn("bash", ["-c", "sleep 60 & sleep 60; wait"], {
    detached: true,
    stdio: "ignore",
    env: { ...process.env, ...env },
  });
  started.push(child);
  return child.pid!;
}

/** A record as the daemon `daemonPid` would have written it. */
function writeRecord(records: string, record: Partial<ChildRecord> & { pid: number }): void {
  mkdirSync(records, { recursive: true });
  const full: ChildRecord = {
    startTicks: readStartTicks(record.pid),
    token: "t",
    group: true,
    kind: "verify",
    what: "verify run x in cpu0",
    daemonPid: 999_999_999,
    daemonTicks: null,
    ...record,
  };
  writeFileSync(join(records, `${record.pid}.json`), JSON.stringify(full));
}

describe("child records", () => {
  test("a dead daemon's verify run is ended as a whole group, logged, and its record removed", async () => {
    dir = makeTempDir("org-children-");
    const records = join(dir, "children");
    const pid = startGroup();
    await pollUntil(() => readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(" ").length === 2, {
      what: "both sleeps",
    });
    const workers = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(" ").map(Number);
    writeRecord(records, { pid });
    const ended = await endLeftChildren({ children: records, log: join(dir, "log.md") }, "the daemon");
    expect(ended.map((record) => record.pid)).toEqual([pid]);
    expect([pid, ...workers].filter(isRunning)).toEqual([]);
    expect(readdirSync(records)).toEqual([]);
    expect(readFileSync(join(dir, "log.md"), "utf8"))
      .toBe(`## [${new Date().toISOString().slice(0, 10)}] recover | the daemon ended 1 process a killed daemon left
- verify run x in cpu0 (pid ${pid} and its process group, left by daemon 999999999)
Their requests stay queued and run again: no one can read the exit status of a run whose daemon died.

`);
  });

  test("a pid reused by another program is left alone; " +
    "a live daemon's children are left to it; a cut record is dropped", async () => {
    dir = makeTempDir("org-children-");
    const records = join(dir, "children");
    const stranger = startGroup();
    const daemon = startGroup();
    const child = startGroup();
    writeRecord(records, { pid: stranger, startTicks: readStartTicks(stranger)! - 1 });
    writeRecord(records, { pid: child, daemonPid: daemon, daemonTicks: readStartTicks(daemon) });
    writeFileSync(join(records, "12345.json"), '{"pid": 123');
    expect(await endOrphanedChildren(records)).toEqual([]);
    expect([stranger, child].every(isRunning)).toBe(true);
    // Only the live daemon's record stays: it is still that daemon's to forget.
    expect(readdirSync(records)).toEqual([`${child}.json`]);
  });

  test("announce writes a pending record before the spawn, started swaps it for the pid's, ended removes it", () => {
    dir = makeTempDir("org-children-");
    const records = new ChildRecords(join(dir, "children"));
    const ticket = records.announce("waiter", "tmux wait-for", false);
    const [pending] = readdirSync(join(dir, "children"));
    expect(JSON.parse(readFileSync(join(dir, "children", pending!), "utf8"))).toMatchObject({
      pid: null,
      token: ticket.env[CHILD_TOKEN_ENV],
      kind: "waiter",
      daemonPid: process.pid,
    });
    ticket.started(process.pid);
    expect(readdirSync(join(dir, "children"))).toEqual([`${process.pid}.json`]);
    const written = JSON.parse(readFileSync(join(dir, "children", `${process.pid}.json`), "utf8")) as ChildRecord;
    expect(written).toMatchObject({
      pid: process.pid,
      kind: "waiter",
      group: false,
      daemonPid: process.pid,
      startTicks: readStartTicks(process.pid),
    });
    ticket.ended(process.pid);
    expect(existsSync(join(dir, "children", `${process.pid}.json`))).toBe(false);
  });

  test("a run whose daemon was killed inside its spawn (no pid on record) " +
    "is found by its token and ended as a group", async () => {
    dir = makeTempDir("org-children-");
    const records = join(dir, "children");
    const token = `test-${process.pid}-${Date.now()}`;
    const pid = startGroup({ [CHILD_TOKEN_ENV]: token });
    await pollUntil(() => readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(" ").length === 2, {
      what: "both sleeps",
    });
    const workers = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(" ").map(Number);
    mkdirSync(records, { recursive: true });
    const pending: ChildRecord = {
      pid: null,
      startTicks: null,
      token,
      group: true,
      kind: "verify",
      what: "verify run y in cpu1",
      daemonPid: 999_999_999,
      daemonTicks: null,
    };
    writeFileSync(join(records, `pending-${token}.json`), JSON.stringify(pending));
    const ended = await endOrphanedChildren(records);
    expect(ended.map((record) => record.pid)).toEqual([pid]);
    expect([pid, ...workers].filter(isRunning)).toEqual([]);
    expect(readdirSync(records)).toEqual([]);
  });
});
