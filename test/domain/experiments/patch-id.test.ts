// The tried key's patch-id computed in-process: the same id `git patch-id --stable` prints, on real diffs (edits,
// whitespace, modes, binary, links, renames, odd bytes) and on lines mixed at random, so its quirks match git's too.
import { execFileSync } from "node:child_process";
import { chmodSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { computePatchId } from "../../../src/domain/experiments/patch-id.js";
import { GIT_ENV, createRepo, git, removeDir } from "../../helpers/temp-repo.js";

const DIFF = ["diff", "--binary", "--full-index", "--no-renames", "--no-color", "--no-ext-diff"];

function gitPatchId(diff: Buffer, cwd: string): string {
  const out = execFileSync("git", ["patch-id", "--stable"], { cwd, input: diff, env: { ...process.env, ...GIT_ENV } });
  return out.toString("latin1").trim().split(/\s+/)[0] ?? "";
}

const repo = createRepo({ "a.txt": "one\ntwo\nthree\nfour\nfive\nsix\nseven\n", "b.txt": "b\n", "gone.txt": "x\n" });
afterAll(() => removeDir(repo));

/** Each step's change from the commit before it, as the tried key's diff writes it, with renames and without. */
function commitSteps(steps: (() => void)[]): { plain: Buffer; renamed: Buffer }[] {
  return steps.map((step, index) => {
    step();
    git(repo, ["add", "-A"]);
    git(repo, ["commit", "-q", "--allow-empty", "-m", `step ${index}`]);
    const plain = execFileSync("git", [...DIFF, "HEAD~", "HEAD"], { cwd: repo });
    const renamed = execFileSync("git", ["diff", "--binary", "--full-index", "-M", "HEAD~", "HEAD"], { cwd: repo });
    return { plain, renamed };
  });
}

const write = (path: string, data: string | Buffer) => () => writeFileSync(join(repo, path), data);

describe("computePatchId", () => {
  test("matches git patch-id --stable on real diffs of every kind", () => {
    const binary = Buffer.from(Array.from({ length: 3000 }, (_, index) => (index * 7919) % 256));
    const diffs = commitSteps([
      write("a.txt", "one\ntwo\nTHREE\nfour\nfive\nsix\nseven\n"),
      // One line changed deep in the file: a hunk header with counts and one without.
      write("a.txt", "one\ntwo\nTHREE\nfour\nfive\nsix\nSEVEN"),
      write("a.txt", "one\n  two\t\nTHREE\r\nfour\nfive\nsix\nSEVEN"),
      write("b.txt", "b\vc\fd\n"),
      () => chmodSync(join(repo, "b.txt"), 0o755),
      () => rmSync(join(repo, "gone.txt")),
      write("empty.txt", ""),
      write("data.bin", binary),
      write("data.bin", Buffer.concat([binary, Buffer.from([0, 1, 2])])),
      write("latin.txt", Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0xff, 0xfe, 0x0a])),
      () => symlinkSync("a.txt", join(repo, "link")),
      () => {
        git(repo, ["mv", "a.txt", "moved.txt"]);
        writeFileSync(join(repo, "c.txt"), "new\nfile\n");
      },
      () => {
        rmSync(join(repo, "data.bin"));
        writeFileSync(join(repo, "b.txt"), "b\n");
        chmodSync(join(repo, "b.txt"), 0o644);
      },
      () => undefined,
    ]);
    for (const { plain, renamed } of diffs) {
      expect(computePatchId(plain)).toBe(gitPatchId(plain, repo));
      expect(computePatchId(renamed)).toBe(gitPatchId(renamed, repo));
    }
    // The no-change step: git prints nothing.
    expect(computePatchId(diffs.at(-1)!.plain)).toBe("");
  });

  test("matches git on lines mixed at random: headers, hunks, binary, commit lines, NULs, odd whitespace", () => {
    const hex = "0123456789abcdef".repeat(3).slice(0, 40);
    const pool = [
      "diff --git a/x b/x", "diff --git a/y b/y", "index 1111..2222 100644", "index 3333..4444", "index ..",
      "--- a/x", "+++ b/x", "--- /dev/null", "@@ -1 +1 @@", "@@ -1,2 +1,3 @@", "@@ -5,0 +6 @@", "@@ -x +1 @@",
      "@@ -1, +2 @@", "+added", "-removed", " context", "+ spaced\tout\r", "\\ No newline at end of file", "\\ x",
      "GIT binary patch", "literal 3", "zcmZ?wbhPJ", "Binary files a/x and b/x differ", "new file mode 100644",
      "old mode 100644", "new mode 100755", `commit ${hex}`, `From ${hex} Mon Sep 17`, hex, "", "+a\0b", "-\0", "+\v\f",
      "similarity index 90%", "rename from x", "rename to y", "9 not alpha",
    ];
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 150; round++) {
      const lines = Array.from({ length: 1 + random(14) }, () => pool[random(pool.length)]!);
      const start = random(3) === 0 ? [] : ["diff --git a/x b/x", "--- a/x", "+++ b/x", "@@ -1,2 +1,2 @@"];
      const text = [...start, ...lines].join("\n") + (random(4) === 0 ? "" : "\n");
      const diff = Buffer.from(text, "latin1");
      expect({ text, id: computePatchId(diff) }).toEqual({ text, id: gitPatchId(diff, repo) });
    }
  });
});
