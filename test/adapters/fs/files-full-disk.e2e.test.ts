// A full disk takes part of a write: appends and atomic writes
// must leave whole files behind, never a cut line or a tmp file.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { assertDaemonAlive, waitForAnswer } from "../../../src/adapters/daemon-client.js";
import { appendLines, writeJsonAtomic } from "../../../src/adapters/fs/files.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";

// Mounting a tmpfs needs root; elsewhere the full-disk fault suite (`npm run faults`) cannot run either.
describe.runIf(process.getuid?.() === 0)("files on a full disk", () => {
  let dir: string;
  beforeEach(() => {
    dir = makeTempDir("org-full-");
    // Two pages: a file of 4090 bytes leaves 6 bytes of room in its page, another file takes the second page.
    expect(spawnSync("mount", ["-t", "tmpfs", "-o", "size=8k", "tmpfs", dir]).status).toBe(0);
    writeFileSync(join(dir, "results.tsv"), `${"x".repeat(4089)}\n`);
    writeFileSync(join(dir, "filler"), "f".repeat(4096));
  });
  afterEach(() => {
    spawnSync("umount", ["-l", dir]);
    removeDir(dir);
  });

  test("an append that only partly fits is cut back: the file ends in its last whole line", async () => {
    await expect(appendLines(join(dir, "results.tsv"), ["abc1234\t0.5\tkeep"])).rejects.toThrow(
      `no space left on the disk mounted at ${dir} (0 B free): could not write ${join(dir, "results.tsv")} — ` +
        `free some space there`,
    );
    expect(readFileSync(join(dir, "results.tsv"), "utf8")).toBe(`${"x".repeat(4089)}\n`);
  });

  test("an atomic write that does not fit leaves the old file and no tmp file", async () => {
    await expect(writeJsonAtomic(join(dir, "results.tsv"), { big: "y".repeat(8192) })).rejects.toThrow(
      `no space left on the disk mounted at ${dir} (0 B free): could not write ${join(dir, "results.tsv")} — ` +
        `free some space there`,
    );
    expect(readdirSync(dir).sort()).toEqual(["filler", "results.tsv"]);
    expect(readFileSync(join(dir, "results.tsv"), "utf8")).toBe(`${"x".repeat(4089)}\n`);
  });

  test("a live daemon that cannot write its heartbeat on the full disk " +
    "is named running, with the disk and its free space", async () => {
    // The filler becomes the daemon's file, a stale heartbeat of this live process; at most a page is left free.
    const daemonFile = join(dir, "filler");
    writeFileSync(
      daemonFile,
      JSON.stringify({ pid: process.pid, heartbeatAt: new Date(Date.now() - 60_000).toISOString() }),
    );
    const failed = await assertDaemonAlive(daemonFile, "the org is not running — start it with `org up`", {
      outcome: "nothing was committed",
    }).catch((error: Error) => error.message);
    expect(failed).toMatch(/^no space left on the disk mounted at \S+ \((0 B|4\.0 KiB) free\): /);
    expect(failed).toContain(`mounted at ${dir} (`);
    expect(failed).toContain(
      `: the org's daemon (pid ${process.pid}) is running but cannot write its heartbeat to ${daemonFile} — ` +
        `free some space there; the daemon carries on by itself once there is room (nothing was committed)`,
    );
  });

  test("a wait for the daemon's answer names the full disk at once, though the heartbeat still fits: " +
    "never a silent wait", async () => {
    const daemonFile = join(dir, "filler");
    writeFileSync(daemonFile, JSON.stringify({ pid: process.pid, heartbeatAt: new Date().toISOString() }));
    const failed = await waitForAnswer(join(dir, "answer.json"), daemonFile, () => undefined)
      .catch((error: Error) => error.message);
    expect(failed).toMatch(new RegExp(`^no space left on the disk mounted at ${dir} \\((0 B|4\\.0 KiB) free\\): `));
    expect(failed).toContain(
      `: the org's daemon (pid ${process.pid}) is running but has no room to answer — free some space there; ` +
        "the daemon carries on by itself once there is room (your request stays queued)",
    );
  });
});
