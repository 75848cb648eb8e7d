// The row's line counts come from the tried key's diff: what `git diff --numstat` says of the same commits.
import { execFileSync } from "node:child_process";
import { writeFileSync, unlinkSync, renameSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { readChange } from "../../../src/adapters/git/change-key.js";
import { processRunner, type RunOptions } from "../../../src/adapters/process.js";
import { usage } from "../../../src/adapters/usage/counters.js";
import { createRepo, git, removeDir } from "../../helpers/temp-repo.js";

let repo: string | undefined;
afterEach(() => {
  if (repo) removeDir(repo);
  repo = undefined;
});

function numstat(dir: string, from: string, to: string) {
  let added = 0;
  let removed = 0;
  for (const line of git(dir, ["diff", "--numstat", from, to]).split("\n").filter(Boolean)) {
    const [plus, minus] = line.split("\t");
    added += Number(plus) || 0;
    removed += Number(minus) || 0;
  }
  return { added, removed };
}

function commit(dir: string, message: string, change: () => void): string {
  change();
  git(dir, ["add", "--all"]);
  git(dir, ["commit", "-q", "--allow-empty", "-m", message]);
  return git(dir, ["rev-parse", "HEAD"]).trim();
}

test("readChange counts a change's lines from its key's diff as git diff --numstat does", async () => {
  const long = Array.from({ length: 40 }, (_, index) => `line ${index}`).join("\n");
  repo = createRepo({ "a.txt": "one\ntwo\nthree\n", "gone.txt": "bye\n", "moved.txt": `${long}\n`, "d.txt": "x\n" });
  const dir = repo;
  const base = git(dir, ["rev-parse", "HEAD"]).trim();
  const at = (name: string) => join(dir, name);
  const cases: [string, () => void][] = [
    // A removed line that reads "-- x" is "--- x" in the diff, and an added "++ y" is "+++ y": lines, not headers.
    ["edit", () => writeFileSync(at("a.txt"), "one\n-- x\n++ y\nthree\n")],
    ["no newline at the end", () => writeFileSync(at("a.txt"), "one\ntwo\nthree")],
    ["delete and add", () => {
      unlinkSync(at("gone.txt"));
      writeFileSync(at("new.txt"), "a\nb\n");
    }],
    ["binary, not UTF-8 and blank lines", () => {
      writeFileSync(at("blob.bin"), Buffer.from([0, 1, 2, 0xff, 0, 10]));
      writeFileSync(at("d.txt"), Buffer.from([0x31, 0xe9, 0x0a, 0x0a, 0x0a]));
    }],
    ["a rename, numstat's 0 and 0", () => renameSync(at("moved.txt"), at("sub-moved.txt"))],
    ["a mode alone", () => git(dir, ["update-index", "--chmod=+x", "a.txt"])],
  ];
  for (const [name, change] of cases) {
    git(dir, ["reset", "-q", "--hard", base]);
    const head = commit(dir, name, change);
    const read = await readChange(dir, base, head);
    expect({ name, ...read.lines }).toEqual({ name, ...numstat(dir, base, head) });
  }
  // Whitespace alone: an empty change to the ledger, lines still counted for the row.
  git(dir, ["reset", "-q", "--hard", base]);
  const spaced = commit(dir, "spaces", () => writeFileSync(at("a.txt"), "one \ntwo\nthree\n"));
  const lines = { added: 1, removed: 1 };
  expect(await readChange(dir, base, spaced)).toMatchObject({ kind: "empty", whitespace: true, lines });
  expect((await readChange(dir, base, base)).lines).toEqual({ added: 0, removed: 0 });
});

test("the diff's bytes are a patch that makes the commit's tree of the base's, binary files included", async () => {
  const dir = createRepo({ "a.txt": "one\n", "old.txt": "old\n" });
  const base = git(dir, ["rev-parse", "HEAD"]).trim();
  writeFileSync(join(dir, "a.txt"), "two\n");
  writeFileSync(join(dir, "bin.dat"), Buffer.from([0, 1, 2, 0xff]));
  git(dir, ["rm", "-q", "old.txt"]);
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "next"]);
  const head = git(dir, ["rev-parse", "HEAD"]).trim();
  const { diff } = await readChange(dir, base, head);
  git(dir, ["read-tree", base]);
  const patch = join(dir, ".git", "change.patch");
  writeFileSync(patch, diff);
  git(dir, ["apply", "--cached", patch]);
  expect(git(dir, ["write-tree"]).trim()).toBe(git(dir, ["rev-parse", `${head}^{tree}`]).trim());
  removeDir(dir);
});

test("git diff -w runs only when the diff cannot tell: an edited line needs none, whitespace asks it", async () => {
  const dir = createRepo({ "a.txt": "one\ntwo\nthree\n" });
  repo = dir;
  const base = git(dir, ["rev-parse", "HEAD"]).trim();
  const asked: string[][] = [];
  const runner = {
    run: (argv: string[], options?: RunOptions) => (asked.push(argv), processRunner.run(argv, options)),
  };
  const edited = commit(dir, "edit", () => writeFileSync(join(dir, "a.txt"), "one\n2\nthree\n"));
  expect(await readChange(dir, base, edited, runner)).toMatchObject({ kind: "change" });
  expect(asked.filter((argv) => argv.includes("-w"))).toEqual([]);
  git(dir, ["reset", "-q", "--hard", base]);
  const spaced = commit(dir, "spaces", () => writeFileSync(join(dir, "a.txt"), "one\n\n  two\nthree\n"));
  expect(await readChange(dir, base, spaced, runner)).toMatchObject({ kind: "empty", whitespace: true });
  expect(asked.filter((argv) => argv.includes("-w"))).toHaveLength(1);
});

test("the key costs one git process, the diff; its patch-id is the one git patch-id --stable prints", async () => {
  const dir = createRepo({ "a.txt": "one\ntwo\nthree\n" });
  repo = dir;
  const base = git(dir, ["rev-parse", "HEAD"]).trim();
  const head = commit(dir, "edit", () => writeFileSync(join(dir, "a.txt"), "one\n2\nthree\n"));
  const before = usage.spawned;
  // In the git folder, as in the verifier's bare store.
  const read = await readChange(join(dir, ".git"), base, head);
  // The base's tree read off its loose object, its patch-id computed here: the diff alone.
  expect(usage.spawned - before).toBe(1);
  expect(read).toMatchObject({ key: { tree: git(dir, ["rev-parse", `${base}^{tree}`]).trim() } });
  const diff = execFileSync("git", ["diff", "--binary", "--full-index", "--no-renames", base, head], { cwd: dir });
  const id = execFileSync("git", ["patch-id", "--stable"], { cwd: dir, input: diff }).toString().split(" ")[0];
  expect(read).toMatchObject({ kind: "change", key: { patchId: id } });
  expect(read.diff).toEqual(diff);
});
