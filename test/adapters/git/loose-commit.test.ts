// A commit's tree read off its loose object, believed only when the bytes hash to the commit's name; anything else
// (packed, a link, a forged object) is left to git.
import { renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { afterEach, expect, test } from "vitest";
import { readLooseCommitTree } from "../../../src/adapters/git/loose-commit.js";
import { createRepo, git, removeDir } from "../../helpers/temp-repo.js";

let repo: string | undefined;
afterEach(() => {
  if (repo) removeDir(repo);
  repo = undefined;
});

function setUp() {
  repo = createRepo({ "a.txt": "1\n" });
  const gitDir = join(repo, ".git");
  const commit = git(repo, ["rev-parse", "HEAD"]).trim();
  const tree = git(repo, ["rev-parse", "HEAD^{tree}"]).trim();
  const file = join(gitDir, "objects", commit.slice(0, 2), commit.slice(2));
  return { gitDir, commit, tree, file };
}

test("a loose commit's tree, as git names it", async () => {
  const { gitDir, commit, tree } = setUp();
  expect(await readLooseCommitTree(gitDir, commit)).toBe(tree);
});

test("an object whose bytes do not hash to its name is not believed, though it reads as a commit", async () => {
  const { gitDir, commit, file } = setUp();
  const other = "0".repeat(40);
  const body = Buffer.from(`tree ${other}\nauthor x <x> 0 +0000\ncommitter x <x> 0 +0000\n\nforged\n`);
  rmSync(file, { force: true });
  writeFileSync(file, deflateSync(Buffer.concat([Buffer.from(`commit ${body.length}\0`), body])));
  expect(await readLooseCommitTree(gitDir, commit)).toBeUndefined();
});

test("a link in the object's place, or a packed commit, is left to git", async () => {
  const { gitDir, commit, file } = setUp();
  const elsewhere = join(repo!, "copy");
  renameSync(file, elsewhere);
  symlinkSync(elsewhere, file);
  expect(await readLooseCommitTree(gitDir, commit)).toBeUndefined();
  rmSync(file);
  renameSync(elsewhere, file);
  git(repo!, ["repack", "-adq"]);
  git(repo!, ["prune-packed"]);
  expect(await readLooseCommitTree(gitDir, commit)).toBeUndefined();
});
