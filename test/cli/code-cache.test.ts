// bin/org.js compiles the bundle from V8's code cache beside it: one per command, written by its first run that
// succeeds, refused by V8 (and written again) when it does not fit; a failed run writes none.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { PACKAGE_ROOT } from "../../src/adapters/package-root.js";
import { ORG_BIN } from "../helpers/org-cli.js";
import { IDENTITIES, runAs } from "../security/identities.js";

const BUNDLE = `${PACKAGE_ROOT}dist/bundle/org.cjs`;

function cacheOf(command: string): string {
  const hash = createHash("sha256").update(readFileSync(BUNDLE)).digest("hex").slice(0, 16);
  return `${BUNDLE}.${hash}.${command}.cache`;
}

function runOrgBin(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [ORG_BIN, ...args], { encoding: "utf8", cwd: PACKAGE_ROOT });
}

describe("the bundle's code cache", () => {
  test("written by a first run; one that does not fit is refused and rewritten; a failed run writes none", () => {
    // `org help` prints the commands and exits 0 outside an org; no other test runs it.
    const cache = cacheOf("help");
    rmSync(cache, { force: true });
    const first = runOrgBin(["help"]);
    expect([first.status, first.stderr]).toEqual([0, ""]);
    expect(readFileSync(cache).length).toBeGreaterThan(10_000);
    const garbage = Buffer.alloc(4096, 7);
    writeFileSync(cache, garbage);
    const again = runOrgBin(["help"]);
    expect([again.status, again.stderr, again.stdout]).toEqual([0, "", first.stdout]);
    expect(readFileSync(cache).equals(garbage)).toBe(false);
    const failed = cacheOf("nosuchcommand");
    const unknown = runOrgBin(["nosuchcommand"]);
    expect(unknown.status).not.toBe(0);
    expect(existsSync(failed)).toBe(false);
  });

  test("named by the build's hash while the bundle has the size and mtime it was hashed at; hashed again otherwise",
    () => {
      const sum = `${BUNDLE}.sum`;
      const built = readFileSync(sum, "latin1");
      const { size, mtimeNs } = statSync(BUNDLE, { bigint: true });
      expect(built).toBe(`${size} ${mtimeNs} ${cacheOf("help").split(".").at(-3)}\n`);
      const stand = `${BUNDLE}.${"0".repeat(16)}.help.cache`;
      try {
        // A sum of another bundle (its mtime differs) is not believed: the cache keeps the bundle's own hash.
        writeFileSync(sum, `${size} ${mtimeNs + 1n} ${"0".repeat(16)}\n`);
        expect(runOrgBin(["help"]).status).toBe(0);
        expect(existsSync(stand)).toBe(false);
        // One that fits is: no 2 MB hashed on the way.
        writeFileSync(sum, `${size} ${mtimeNs} ${"0".repeat(16)}\n`);
        expect(runOrgBin(["help"]).status).toBe(0);
        expect(existsSync(stand)).toBe(true);
      } finally {
        writeFileSync(sum, built);
        rmSync(stand, { force: true });
      }
    });

  // As root the user is uid 4242, who cannot write root's dist/; as a user there is no such install to test.
  const user = IDENTITIES.find((who) => who.name === "user" && who.uid !== process.getuid?.());
  test.runIf(user)("an install the user cannot write: no cache computed for it, and the command runs", () => {
    const cache = cacheOf("help");
    rmSync(cache, { force: true });
    const dir = mkdtempSync(join(tmpdir(), "org-cache-"));
    try {
      // Told by V8's own call: a preload marks each createCachedData in a file the user may write.
      const marks = join(dir, "marks");
      writeFileSync(join(dir, "mark.cjs"), `const { Script } = require("node:vm");
const create = Script.prototype.createCachedData;
Script.prototype.createCachedData = function () {
  require("node:fs").appendFileSync(${JSON.stringify(marks)}, "computed\\n");
  return create.call(this);
};`);
      chownSync(dir, user!.uid, user!.gid);
      const env = { NODE_OPTIONS: `--require ${join(dir, "mark.cjs")}` };
      const run = runAs(user!, [process.execPath, ORG_BIN, "help"], { cwd: dir, env });
      expect([run.code, run.stderr]).toEqual([0, ""]);
      expect(run.stdout).toContain("org up");
      expect(existsSync(marks)).toBe(false);
      expect(existsSync(cache)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

