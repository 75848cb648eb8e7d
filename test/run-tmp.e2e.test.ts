import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, test } from "vitest";
import { readStartTicks } from "../src/adapters/process.js";
import { readMounts } from "./run-tmp-mount.js";

// A `vitest run` of its own (test/fixtures/run-tmp: the run's folder and the hermetic env, as vitest.config.ts has
// them), in a TMPDIR of the test's: one file makes folders and passes, one starts a process and is killed before its
// exit hook runs.
const root = fileURLToPath(new URL("../", import.meta.url));
const outer = mkdtempSync(join(tmpdir(), "org-test-run-"));
const isRoot = process.getuid?.() === 0;
afterAll(() => {
  for (const dir of mountsIn(outer)) spawnSync("umount", ["-l", dir]);
  rmSync(outer, { recursive: true, force: true });
});

/** The run-tmp fixture's `vitest run`, in the TMPDIR `dir`. */
function runFixture(dir: string) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("VITEST")));
  const config = "test/fixtures/run-tmp/vitest.config.ts";
  const vitest = join(root, "node_modules/vitest/vitest.mjs");
  return spawnSync(process.execPath, [vitest, "run", "--config", config], {
    cwd: root, env: { ...env, TMPDIR: dir }, encoding: "utf8", timeout: 60_000,
  });
}

/** The mount points in `dir`. */
function mountsIn(dir: string): string[] {
  return readMounts().map((mount) => mount.dir).filter((point) => point.startsWith(`${dir}/`));
}

const sleeping = () => readdirSync("/proc").filter((pid) => {
  try {
    return /^\d+$/.test(pid) && readFileSync(`/proc/${pid}/cmdline`, "utf8") === ["sleep", "300.4242", ""].join("\0");
  } catch {
    return false;
  }
});

test("a run leaves no folder in its TMPDIR and nothing running, not even what a worker the pool killed left", () => {
  const run = runFixture(outer);
  const made = /made (\S+) home (\S+) on (\S+)/.exec(run.stdout);
  expect(made, run.stdout + run.stderr).not.toBeNull();
  for (const dir of made!.slice(1, 3)) expect(dir).toMatch(new RegExp(`^${outer}/org-run-\\w+/org-test-`));
  // Root mounts a tmpfs on the run's folder; anyone else's run keeps it on the disk.
  expect(made![3]).toBe(isRoot ? "tmpfs" : "disk");
  expect(run.stdout + run.stderr).toContain("Worker exited unexpectedly");
  expect(readdirSync(outer)).toEqual([]);
  expect(mountsIn(outer)).toEqual([]);
  expect(run.stderr).toMatch(/^test\/run-tmp\.ts: ended what the run left running:\npid \d+ \(sleep 300\.4242\) in /m);
  expect(sleeping()).toEqual([]);
});

test.skipIf(!isRoot)("a run killed before its teardown leaves a tmpfs: the next run in that TMPDIR removes it, " +
  "and leaves a live run's alone", () => {
  const parent = mkdtempSync(join(outer, "killed-"));
  // Named as a run's mount names its owner: this process with another start time (ended), and this process itself.
  const owners = { stale: `${process.pid}-1`, live: `${process.pid}-${readStartTicks(process.pid)}` };
  for (const [name, owner] of Object.entries(owners)) {
    const dir = join(parent, `org-run-${name}`);
    mkdirSync(dir);
    const mount = spawnSync("mount", ["-t", "tmpfs", "-o", "size=1m", `org-run-${owner}`, dir]);
    expect(mount.status, mount.stderr.toString()).toBe(0);
  }
  const run = runFixture(parent);
  expect(run.stderr).toContain(`test/run-tmp.ts: removed a killed run's tmpfs: ${parent}/org-run-stale\n`);
  expect(mountsIn(parent)).toEqual([`${parent}/org-run-live`]);
  expect(readdirSync(parent)).toEqual(["org-run-live"]);
});
