// The admit's pack made by node from loose objects: what the store lacks and nothing it has, each object believed only
// when its bytes hash to its name; anything else is left to git's pipe, and the store's unpack-objects --strict judges.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { afterEach, expect, test } from "vitest";
import { buildLoosePack } from "../../../src/adapters/git/loose-pack.js";
import { admitCommits } from "../../../src/adapters/git/verifier-store.js";
import { usage } from "../../../src/adapters/usage/counters.js";
import { createAdmittedRepo } from "../../helpers/verifier-store.js";
import { git, makeTempDir, removeDir, writeFiles } from "../../helpers/temp-repo.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

async function createStore(files: Record<string, string>) {
  const { repo, store, base } = await createAdmittedRepo(dirs, files);
  const commit = (message: string) => {
    git(repo, ["add", "-A"]);
    git(repo, ["commit", "-qm", message]);
    return git(repo, ["rev-parse", "HEAD"]).trim();
  };
  const objectFile = (hash: string) => join(repo, ".git", "objects", hash.slice(0, 2), hash.slice(2));
  const build = (wanted: string[], held = [base]) => buildLoosePack({
    repo: join(repo, ".git", "objects"), store, wanted, held,
  });
  return { repo, store, base, commit, objectFile, build };
}

const countOf = (pack: Buffer | undefined) => pack?.readUInt32BE(8);

test("a change deep in a folder: the commit, the trees on its path and the blob, nothing the base has", async () => {
  const { repo, commit, build } = await createStore({ "a/b/c.txt": "1\n", "a/d.txt": "2\n", "e.txt": "3\n" });
  writeFiles(repo, { "a/b/c.txt": "10\n" });
  expect(countOf(await build([commit("deep")]))).toBe(5);
});

test("the base packed in the store (a fetch keeps a pack): its trees read there, the candidate still packed by node",
  async () => {
    const { repo, store, base, commit, build } = await createStore({ "a/b.txt": "1\n", "c.txt": "2\n" });
    git(store, ["repack", "-adq"]);
    git(store, ["prune-packed"]);
    writeFiles(repo, { "a/b.txt": "10\n" });
    const head = commit("on the packed base");
    expect(countOf(await build([head]))).toBe(4);
    const before = usage.spawned;
    expect(await admitCommits(store, repo, [head, base])).toBeUndefined();
    expect(usage.spawned - before).toBe(1);
    git(store, ["fsck", "--strict", "--no-dangling"]);
  });

test("every shape of change, three commits deep: one git process, the store the repo's and checked clean", async () => {
  const { repo, store, base, commit } = await createStore({
    "a/b/c.txt": "1\n", "a/d.txt": "2\n", "gone/x.txt": "x\n", "run.sh": "echo\n", "f": "file\n",
  });
  writeFiles(repo, { "a/b/c.txt": "10\n", "new/deeper/n.txt": "n\n" });
  rmSync(join(repo, "gone"), { recursive: true });
  commit("first");
  git(repo, ["update-index", "--chmod=+x", "run.sh"]);
  symlinkSync("a/d.txt", join(repo, "link"));
  rmSync(join(repo, "f"));
  writeFiles(repo, { "f/inside.txt": "was a file\n" });
  commit("second");
  git(repo, ["update-index", "--add", "--cacheinfo", `160000,${base},vendored`]);
  writeFiles(repo, { "a/d.txt": "20\n", "copy.txt": "10\n" });
  const head = commit("third");
  const before = usage.spawned;
  expect(await admitCommits(store, repo, [head, base])).toBeUndefined();
  expect(usage.spawned - before).toBe(1);
  git(store, ["fsck", "--strict", "--no-dangling"]);
  for (const rev of [head, `${head}~1`, `${head}~2`]) {
    expect(git(store, ["ls-tree", "-r", "-t", rev])).toBe(git(repo, ["ls-tree", "-r", "-t", rev]));
  }
  expect(git(store, ["show", `${head}:link`])).toBe("a/d.txt");
});

test("a tree rewritten in the shared store is not believed: no pack, and the admit refuses it", async () => {
  const { repo, store, base, commit, objectFile, build } = await createStore({ "a/b.txt": "1\n" });
  writeFiles(repo, { "a/b.txt": "2\n" });
  const head = commit("honest");
  const tree = git(repo, ["rev-parse", `${head}:a`]).trim();
  const blob = git(repo, ["rev-parse", `${base}:a/b.txt`]).trim();
  const forged = Buffer.concat([Buffer.from("100644 b.txt\0"), Buffer.from(blob, "hex")]);
  const bytes = deflateSync(Buffer.concat([Buffer.from(`tree ${forged.length}\0`), forged]));
  writeFileSync(`${objectFile(tree)}.tmp`, bytes);
  renameSync(`${objectFile(tree)}.tmp`, objectFile(tree));
  expect(await build([head])).toBeUndefined();
  expect(await admitCommits(store, repo, [head, base])).toMatch(/could not be taken into the verifier's own object/);
  expect(git(store, ["for-each-ref", "refs/verified"]).trim().split("\n")).toHaveLength(1);
});

test("a link in an object's place, a packed object, a root commit: left to git", async () => {
  const { repo, base, commit, objectFile, build } = await createStore({ "a.txt": "1\n" });
  writeFiles(repo, { "a.txt": "2\n" });
  const head = commit("next");
  const blob = git(repo, ["rev-parse", `${head}:a.txt`]).trim();
  const elsewhere = join(makeTempDir(), "object");
  dirs.push(join(elsewhere, ".."));
  renameSync(objectFile(blob), elsewhere);
  symlinkSync(elsewhere, objectFile(blob));
  expect(await build([head])).toBeUndefined();
  rmSync(objectFile(blob));
  renameSync(elsewhere, objectFile(blob));
  expect(countOf(await build([head]))).toBe(3);
  expect(await build([base], [])).toBeUndefined();
  git(repo, ["repack", "-adq"]);
  git(repo, ["prune-packed"]);
  expect(await build([head])).toBeUndefined();
});

test("a fifo in an object's place is not opened for reading: left to git", async () => {
  const { repo, commit, objectFile, build } = await createStore({ "a.txt": "1\n" });
  writeFiles(repo, { "a.txt": "2\n" });
  const head = commit("next");
  const blob = git(repo, ["rev-parse", `${head}:a.txt`]).trim();
  rmSync(objectFile(blob));
  execFileSync("mkfifo", [objectFile(blob)]);
  expect(await build([head])).toBeUndefined();
});

test("a commit whose loose header writes its size as git never does: not taken, and no ref names what is not there",
  async () => {
    const { repo, store, base, build } = await createStore({ "a.txt": "1\n" });
    writeFiles(repo, { "a.txt": "2\n" });
    git(repo, ["add", "-A"]);
    const tree = git(repo, ["write-tree"]).trim();
    const person = "a <a@example.com> 0 +0000";
    const body = `tree ${tree}\nparent ${base}\nauthor ${person}\ncommitter ${person}\n\nz\n`;
    // "commit 0153": its hash is this file's, but the store would name the body it is sent by "commit 153".
    const raw = Buffer.from(`commit 0${Buffer.byteLength(body)}\0${body}`);
    const commit = createHash("sha1").update(raw).digest("hex");
    mkdirSync(join(repo, ".git", "objects", commit.slice(0, 2)), { recursive: true });
    writeFileSync(join(repo, ".git", "objects", commit.slice(0, 2), commit.slice(2)), deflateSync(raw));
    expect(await build([commit])).toBeUndefined();
    expect(await admitCommits(store, repo, [commit, base])).toMatch(/could not be taken into the verifier's own/);
    expect(git(store, ["for-each-ref", "--format=%(refname)", "refs/verified"]).trim()).toBe(`refs/verified/${base}`);
    git(store, ["fsck", "--strict", "--no-dangling"]);
  });
