// A full disk is told to the user as where (mount, path), how much
// is free and what to do — never a bare ENOSPC, never "not running".
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { assertDaemonAlive, type DaemonProbe } from "../../../src/adapters/daemon-client.js";
import {
  addOutcome, convertNoSpace, describeDiskFull, findMountPoint, formatBytes, readFreeBytes,
} from "../../../src/adapters/fs/disk-space.js";
import { OrgError } from "../../../src/domain/errors.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: no space left on device, write`), { code });
}

let dir: string;
beforeEach(() => {
  dir = makeTempDir("org-disk-");
});
afterEach(() => removeDir(dir));

describe("disk-full messages", () => {
  test("bytes read as people read them", () => {
    expect([0, 1023, 1024, 12 * 1024 + 300, 1536, 5 * 1024 ** 3].map(formatBytes)).toEqual([
      "0 B",
      "1023 B",
      "1.0 KiB",
      "12 KiB",
      "1.5 KiB",
      "5.0 GiB",
    ]);
  });

  test("free bytes and mount point of a path that does not " +
    "exist yet come from its nearest existing folder", async () => {
    const file = join(dir, "queue", "not-yet", "x.json");
    expect(await readFreeBytes(file)).toBeGreaterThan(0);
    const mount = await findMountPoint(file);
    expect(dir.startsWith(mount!)).toBe(true);
  });

  test("an ENOSPC or EDQUOT becomes a disk-full OrgError naming the disk, " +
    "the free space, the file and the fix", async () => {
    const file = join(dir, "queue", "a.json");
    for (const code of ["ENOSPC", "EDQUOT"]) {
      const converted = await convertNoSpace(errno(code), file);
      expect(converted).toBeInstanceOf(OrgError);
      expect((converted as OrgError).code).toBe("disk-full");
      expect((converted as OrgError).message).toMatch(
        new RegExp(
          `^no space left on the disk mounted at /\\S* \\(\\d+(\\.\\d)? [KMGT]?i?B free\\): ` +
            `could not write ${file} — free some space there$`,
        ),
      );
    }
    const other = errno("EACCES");
    expect(await convertNoSpace(other, file)).toBe(other);
  });

  test("the free space the caller measured is the one named, and the outcome follows the fix", async () => {
    const message = await describeDiskFull(join(dir, "daemon.json"), {
      what: "the heartbeat could not be written",
      free: 0,
    });
    expect(message).toMatch(/ \(0 B free\): the heartbeat could not be written — free some space there$/);
    const full = new OrgError(message, "disk-full");
    expect(() => addOutcome(full, "nothing was committed")).toThrow(/free some space there; nothing was committed$/);
    const other = new OrgError("locked", "locked");
    expect(() => addOutcome(other, "nothing was committed")).toThrow(/^locked$/);
  });
});

describe("a live daemon whose heartbeat is stale is never called not running", () => {
  const stale = () => new Date(Date.now() - 60_000).toISOString();
  const probe = (free: number | undefined, alive = true): DaemonProbe => ({
    isAlive: () => alive,
    readFreeBytes: async () => free,
  });
  const check = (daemonFile: string, given: DaemonProbe) =>
    assertDaemonAlive(daemonFile, "the org is not running — start it with `org up` (nothing was committed)", {
      outcome: "nothing was committed",
      probe: given,
    });

  test("on a full disk: the daemon runs but cannot write its heartbeat, " +
    "with the disk, the free space and the fix", async () => {
    const daemonFile = join(dir, "daemon.json");
    writeFileSync(daemonFile, JSON.stringify({ pid: process.pid, heartbeatAt: stale() }));
    const error = await check(daemonFile, probe(0)).then(() => undefined, (thrown: OrgError) => thrown);
    expect(error).toBeInstanceOf(OrgError);
    expect(error!.code).toBe("disk-full");
    expect(error!.message).toContain(`no space left on the disk mounted at `);
    expect(error!.message).toContain(
      `(0 B free): the org's daemon (pid ${process.pid}) is running but cannot write its heartbeat to ${daemonFile} ` +
        `— free some space there`,
    );
    expect(error!.message).toMatch(/\(nothing was committed\)$/);
    expect(error!.message).not.toMatch(/not running/);
  });

  test("with room on the disk: the daemon stopped answering, " +
    "how old its heartbeat is, and how to restart it", async () => {
    const daemonFile = join(dir, "daemon.json");
    writeFileSync(daemonFile, JSON.stringify({ pid: process.pid, heartbeatAt: stale() }));
    await expect(check(daemonFile, probe(50 * 1024 ** 3))).rejects.toThrow(
      new RegExp(
        `^the org's daemon \\(pid ${process.pid}\\) stopped answering \\(heartbeat 60 s old\\) — ` +
          `restart it with \`org down && org up\` \\(nothing was committed\\)$`,
      ),
    );
  });

  test("a dead daemon keeps the not-running message, full disk or not", async () => {
    const daemonFile = join(dir, "daemon.json");
    writeFileSync(daemonFile, JSON.stringify({ pid: process.pid, heartbeatAt: stale() }));
    await expect(check(daemonFile, probe(0, false))).rejects.toThrow(
      /^the org is not running — start it with `org up` \(nothing was committed\)$/,
    );
    await expect(check(join(dir, "missing.json"), probe(0))).rejects.toThrow(/^the org is not running/);
  });

  test("a live daemon with a fresh heartbeat passes, " +
    "even on a full disk, and its heartbeat is handed back", async () => {
    const daemonFile = join(dir, "daemon.json");
    const heartbeat = { pid: process.pid, heartbeatAt: new Date().toISOString(), queuePerAgent: 3 };
    writeFileSync(daemonFile, JSON.stringify(heartbeat));
    await expect(check(daemonFile, probe(0))).resolves.toEqual(heartbeat);
  });
});
