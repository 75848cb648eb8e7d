// The verifier's lookup of a run's program, made at once: the same answer as the thread pool's, for PATH and for a
// path relative to the checkout.
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { findProgram, findProgramNow } from "../../../src/adapters/probes/runtime.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

test("on PATH, relative to the folder, not executable, missing: as findProgram says", async () => {
  const dir = makeTempDir();
  dirs.push(dir);
  writeFileSync(join(dir, "run.sh"), "#!/bin/sh\n");
  chmodSync(join(dir, "run.sh"), 0o755);
  writeFileSync(join(dir, "plain.txt"), "x\n");
  const path = `/nonexistent:${dir}`;
  for (const program of ["run.sh", "./run.sh", "plain.txt", "./plain.txt", "missing", ""]) {
    expect(findProgramNow(program, dir, path)).toBe(await findProgram(program, dir, path));
  }
  expect(findProgramNow("run.sh", "/", path)).toBe(join(dir, "run.sh"));
  expect(findProgramNow("./plain.txt", dir, path)).toBeNull();
});
