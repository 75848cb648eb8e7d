import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, test } from "vitest";

// A `vitest run` of its own (test/fixtures/run-tmp: the run's folder and the hermetic env, as vitest.config.ts has
// them), in a TMPDIR of the test's: one file makes folders and passes, one starts a process and is killed before its
// exit hook runs.
const root = fileURLToPath(new URL("../", import.meta.url));
const outer = mkdtempSync(join(tmpdir(), "org-test-run-"));
afterAll(() => rmSync(outer, { recursive: true, force: true }));

const sleeping = () => readdirSync("/proc").filter((pid) => {
  try {
    return /^\d+$/.test(pid) && readFileSync(`/proc/${pid}/cmdline`, "utf8") === ["sleep", "300.4242", ""].join("\0");
  } catch {
    return false;
  }
});

test("a run leaves no folder in its TMPDIR and nothing running, not even what a worker the pool killed left", () => {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("VITEST")));
  const config = "test/fixtures/run-tmp/vitest.config.ts";
  const vitest = join(root, "node_modules/vitest/vitest.mjs");
  const run = spawnSync(process.execPath, [vitest, "run", "--config", config], {
    cwd: root, env: { ...env, TMPDIR: outer }, encoding: "utf8", timeout: 60_000,
  });
  const made = /made (\S+) home (\S+)/.exec(run.stdout);
  expect(made, run.stdout + run.stderr).not.toBeNull();
  for (const dir of made!.slice(1)) expect(dir).toMatch(new RegExp(`^${outer}/org-run-\\w+/org-test-`));
  expect(run.stdout + run.stderr).toContain("Worker exited unexpectedly");
  expect(readdirSync(outer)).toEqual([]);
  expect(run.stderr).toMatch(/^test\/run-tmp\.ts: ended what the run left running:\npid \d+ \(sleep 300\.4242\) in /m);
  expect(sleeping()).toEqual([]);
});
