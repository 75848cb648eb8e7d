// A sandboxed agent's `org` (the shim) whose request does not fit in its outbox: one line naming the disk and what to
// do, no shell error, no file left behind. The real shim on a real full tmpfs (root only) or an outbox it cannot make.
import { spawnSync } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { renderOrgShim } from "../../../src/domain/sandbox/shim.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";

let dir: string;
let outbox: string;
beforeEach(() => {
  dir = makeTempDir("org-shim-full-");
  outbox = join(dir, "outbox");
  writeFileSync(join(dir, "org"), renderOrgShim(["/bin/false"]), { mode: 0o755 });
  writeFileSync(join(dir, "message.md"), "hello\n");
});
afterEach(() => removeDir(dir));

/** The shim as an agent's `org` in `dir`: its exit status and outputs; it ends at once when it cannot write. */
function runShim(args: string[], env: Record<string, string> = {}) {
  const shim = spawnSync(join(dir, "org"), args, {
    cwd: dir, encoding: "utf8", env: { ...process.env, ORG_OUTBOX: outbox, ORG_AGENT: "researcher-1", ...env },
  });
  return { code: shim.status, stdout: shim.stdout, stderr: shim.stderr };
}

// Mounting a tmpfs needs root; elsewhere the full-disk fault suite (`npm run faults`) cannot run either.
describe.runIf(process.getuid?.() === 0)("the shim on a full disk", () => {
  beforeEach(() => {
    spawnSync("mkdir", [outbox]);
    expect(spawnSync("mount", ["-t", "tmpfs", "-o", "size=8k", "tmpfs", outbox]).status).toBe(0);
    writeFileSync(join(outbox, "filler"), "f".repeat(8192));
  });
  afterEach(() => {
    spawnSync("umount", ["-l", outbox]);
  });

  test.each([
    ["a command", ["submit", "-m", "try"], {}],
    ["a command whose -f file is copied in", ["send", "researcher-2", "-f", "message.md"], {}],
    ["a polled command (Slurm)", ["status"], { ORG_OUTBOX_POLL: "1" }],
  ])("%s: one line naming the disk and what to do, exit 70, nothing left in the outbox", (_, args, env) => {
    const said = `org: no space left on the disk holding ${outbox} (0 KiB free): this command could not be handed ` +
      "to the org's daemon — free some space there and run it again (nothing was done)\n";
    expect(runShim(args, env)).toEqual({ code: 70, stdout: "", stderr: said });
    expect(readdirSync(outbox)).toEqual(["filler"]);
  });
});

test("an outbox it cannot make, on a disk with room: one line naming the folder, exit 70", () => {
  // A file where the outbox's parent should be: mkdir fails with room to spare.
  writeFileSync(join(dir, "file"), "");
  outbox = join(dir, "file", "outbox");
  const said = `org: could not write this command's request in ${outbox} — check that folder and its disk ` +
    "(nothing was done)\n";
  expect(runShim(["status"])).toEqual({ code: 70, stdout: "", stderr: said });
});
