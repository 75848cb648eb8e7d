// What changed between two commits, read off their trees by node (loose objects, or packs with deltas), held to
// `git diff --raw --no-renames` on every shape of change; anything not read plainly is left to git.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, expect, test } from "vitest";
import type { ChangedPath } from "../../../src/domain/experiments/path-rules.js";
import { createStoreReader } from "../../../src/adapters/git/store-objects.js";
import { diffCommits } from "../../../src/adapters/git/tree-diff.js";
import { createRepo, git, removeDir } from "../../helpers/temp-repo.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

function asGit(repo: string, from: string, to: string): ChangedPath[] {
  const raw = git(repo, ["diff", "--raw", "--no-renames", "--no-abbrev", "-z", from, to]);
  const fields = raw.split("\0").filter(Boolean);
  const changes: ChangedPath[] = [];
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const [, mode, , blob, status] = fields[index]!.slice(1).split(" ");
    const change: ChangedPath = { status: status!, path: fields[index + 1]! };
    if (mode === "120000") change.link = git(repo, ["cat-file", "blob", blob!]);
    changes.push(change);
  }
  return changes;
}

function put(repo: string, path: string, content: string) {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), content);
}

function commit(repo: string, message: string): string {
  git(repo, ["add", "-A"]);
  git(repo, ["commit", "-q", "--allow-empty", "-m", message]);
  return git(repo, ["rev-parse", "HEAD"]).trim();
}

function expectSameAsGit(repo: string, commits: string[]) {
  for (const from of commits) for (const to of commits) {
    expect(diffCommits(createStoreReader(join(repo, ".git")), from, to)).toEqual(asGit(repo, from, to));
  }
}

test("every shape of change, loose and then packed with deltas, as git lists it", () => {
  const repo = createRepo({ "a/b/c.txt": "1\n", "a-b": "x\n", "a.txt": "y\n", "gone/x.txt": "x\n", "f": "file\n",
    "run.sh": "echo\n", "é/ü.txt": "unicode\n", "big.txt": "line\n".repeat(2000) });
  dirs.push(repo);
  const commits = [git(repo, ["rev-parse", "HEAD"]).trim()];
  put(repo, "a/b/c.txt", "10\n");
  put(repo, "new/deeper/n.txt", "n\n");
  put(repo, "big.txt", `${"line\n".repeat(2000)}more\n`);
  rmSync(join(repo, "gone"), { recursive: true });
  commits.push(commit(repo, "first"));
  git(repo, ["update-index", "--chmod=+x", "run.sh"]);
  symlinkSync("a/b/c.txt", join(repo, "link"));
  rmSync(join(repo, "f"));
  put(repo, "f/inside.txt", "was a file\n");
  commits.push(commit(repo, "second"));
  // A repo inside the repo: git records it as a submodule's commit (mode 160000).
  mkdirSync(join(repo, "vendored"));
  const vendored = createRepo({ "v.txt": "1\n" }, join(repo, "vendored"));
  rmSync(join(repo, "a-b"));
  symlinkSync("elsewhere", join(repo, "a-b"));
  rmSync(join(repo, "a"), { recursive: true });
  put(repo, "a", "a folder no more\n");
  commits.push(commit(repo, "third"));
  put(vendored, "v.txt", "2\n");
  commit(vendored, "moved on");
  rmSync(join(repo, "link"));
  put(repo, "link", "a file now\n");
  commits.push(commit(repo, "fourth"));
  rmSync(vendored, { recursive: true });
  put(repo, "vendored", "a file where the submodule was\n");
  commits.push(commit(repo, "fifth"));
  expectSameAsGit(repo, commits);
  git(repo, ["repack", "-adfq", "--depth=50", "--window=50"]);
  git(repo, ["prune-packed"]);
  expectSameAsGit(repo, commits);
});

test("a random history of edits, moves and deletions, as git lists it", () => {
  const repo = createRepo({ "seed.txt": "0\n" });
  dirs.push(repo);
  let state = 7;
  const random = (below: number) => (state = (state * 1103515245 + 12345) % 2 ** 31) % below;
  const names = ["a", "b", "a.b", "a-b", "c/d", "c/e", "c/d/f", "g/h/i", "g/h"];
  const commits = [git(repo, ["rev-parse", "HEAD"]).trim()];
  for (let round = 0; round < 12; round++) {
    for (let edit = 0; edit < 3; edit++) {
      const path = names[random(names.length)]!;
      rmSync(join(repo, path), { recursive: true, force: true });
      if (random(4) === 0) continue;
      try {
        put(repo, path, `${round} ${edit}\n`);
      } catch {
        // A file stands where this path needs a folder: that change is left out of the round.
      }
    }
    commits.push(commit(repo, `round ${round}`));
  }
  expectSameAsGit(repo, commits);
});

test("an object missing, or not a tree where one is named: left to git", () => {
  const repo = createRepo({ "a/b.txt": "1\n" });
  dirs.push(repo);
  const base = git(repo, ["rev-parse", "HEAD"]).trim();
  put(repo, "a/b.txt", "2\n");
  const head = commit(repo, "next");
  const tree = git(repo, ["rev-parse", `${head}:a`]).trim();
  const read = createStoreReader(join(repo, ".git"));
  expect(diffCommits((hash) => (hash === tree ? undefined : read(hash)), base, head)).toBeUndefined();
  expect(diffCommits(read, base, tree)).toBeUndefined();
  expect(diffCommits(read, base, "0".repeat(40))).toBeUndefined();
});

test("a tree naming one subtree twice, 12 deep (13 small trees, 4096 paths): left to git, which lists them all", () => {
  const repo = createRepo({ "a.txt": "1\n" });
  dirs.push(repo);
  const base = git(repo, ["rev-parse", "HEAD"]).trim();
  const hashTree = (entries: [string, string, string][]) => {
    const input = Buffer.concat(entries.flatMap(([mode, name, hash]) => [`${mode} ${name}\0`, Buffer.from(hash, "hex")])
      .map((part) => Buffer.from(part)));
    return execFileSync("git", ["hash-object", "-w", "-t", "tree", "--stdin"], { cwd: repo, input, encoding: "utf8" })
      .trim();
  };
  const blob = git(repo, ["rev-parse", "HEAD:a.txt"]).trim();
  let tree = hashTree([["100644", "f", blob]]);
  for (let depth = 0; depth < 12; depth++) tree = hashTree([["40000", "a", tree], ["40000", "b", tree]]);
  const root = hashTree([["100644", "a.txt", blob], ["40000", "d", tree]]);
  const head = git(repo, ["commit-tree", root, "-p", base, "-m", "doubled"]).trim();
  expect(diffCommits(createStoreReader(join(repo, ".git")), base, head)).toBeUndefined();
  expect(asGit(repo, base, head)).toHaveLength(4096);
});

test("a link's blob packed as a delta whose result is past what node reads: left to git", () => {
  const repo = createRepo({ "a.txt": "1\n" });
  dirs.push(repo);
  let state = 1;
  const letters = Array.from({ length: 3_000_000 }, () => (state = (state * 1103515245 + 12345) % 2 ** 31) % 10);
  const text = Buffer.from(letters.map((letter) => 97 + letter));
  writeFileSync(join(repo, "base.txt"), text);
  const base = commit(repo, "base");
  // Five MB, all copies of the base's three: a delta of a few bytes in the pack, its result past node's 4 MB.
  writeFileSync(join(repo, "big.txt"), Buffer.concat([text, text.subarray(0, 2_000_000)]));
  const blob = git(repo, ["hash-object", "-w", "big.txt"]).trim();
  rmSync(join(repo, "big.txt"));
  git(repo, ["update-index", "--add", "--cacheinfo", `120000,${blob},link`]);
  git(repo, ["commit", "-qm", "link"]);
  const head = git(repo, ["rev-parse", "HEAD"]).trim();
  git(repo, ["repack", "-adfq", "--window=50", "--depth=50"]);
  git(repo, ["prune-packed"]);
  const packs = join(repo, ".git", "objects", "pack");
  const index = join(packs, readdirSync(packs).find((name) => name.endsWith(".idx"))!);
  // The link's blob is a delta of depth 1 in the pack.
  expect(git(repo, ["verify-pack", "-v", index])).toMatch(new RegExp(`^${blob} blob +\\d+ \\d+ \\d+ 1 `, "m"));
  expect(diffCommits(createStoreReader(join(repo, ".git")), base, head)).toBeUndefined();
});
