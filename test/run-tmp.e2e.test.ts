import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, test } from "vitest";

// A `vitest run` of its own (test/fixtures/run-tmp: the run's folder and the hermetic env, as vitest.config.ts has
// them), in a TMPDIR of the test's: one file makes folders and passes, one is killed before its exit hook runs.
const root = fileURLToPath(new URL("../", import.meta.url));
const outer = mkdtempSync(join(tmpdir(), "org-test-run-"));
afterAll(() => rmSync(outer, { recursive: true, force: true }));

test("a run leaves no folder in its TMPDIR, not even those of a worker the pool killed", () => {
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
});
