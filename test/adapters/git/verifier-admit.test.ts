// Commits taken into the verifier's own store: their loose objects packed by node (else piped from pack-objects) into
// unpack-objects --strict when the store holds a commit to build on, the fetch otherwise; an object rewritten in the
// shared store is refused every way.
import { readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { afterEach, describe, expect, test } from "vitest";
import { admitCommits, openVerifierStore } from "../../../src/adapters/git/verifier-store.js";
import { usage } from "../../../src/adapters/usage/counters.js";
import { createAdmittedRepo } from "../../helpers/verifier-store.js";
import { createRepo, git, makeTempDir, removeDir } from "../../helpers/temp-repo.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

async function createStore() {
  const { repo, store, base } = await createAdmittedRepo(dirs, { "a.txt": "1\n", "b.txt": "2\n" });
  const commit = (file: string, text: string) => {
    writeFileSync(join(repo, file), text);
    git(repo, ["commit", "-qam", `${file} ${text.trim()}`]);
    return git(repo, ["rev-parse", "HEAD"]).trim();
  };
  return { repo, store, base, commit };
}

/**
 * Spawned from node for one admit: the fetch is one git (its helpers its own), the pipe two, node's pack one (the refs
 * are files).
 */
async function countSpawns(run: () => Promise<string | undefined>) {
  const before = usage.spawned;
  const refused = await run();
  return { refused, spawned: usage.spawned - before };
}

describe("admitting commits into the verifier's store", () => {
  test("two new commits on the base: packed by node in whole, named by refs, and the store checks clean", async () => {
    const { repo, store, base, commit } = await createStore();
    commit("a.txt", "10\n");
    const head = commit("b.txt", "20\n");
    const admitted = await countSpawns(() => admitCommits(store, repo, [head, base]));
    expect(admitted).toEqual({ refused: undefined, spawned: 1 });
    expect(git(store, ["rev-parse", `refs/verified/${head}`]).trim()).toBe(head);
    const refs = git(store, ["for-each-ref", "--format=%(refname)", "refs/verified"]);
    expect(refs.trim().split("\n")).toHaveLength(2);
    expect(git(store, ["show", `${head}~1:a.txt`])).toBe("10\n");
    git(store, ["fsck", "--strict", "--no-dangling"]);
    // Held already: nothing runs.
    expect(await countSpawns(() => admitCommits(store, repo, [head]))).toEqual({ refused: undefined, spawned: 0 });
  });

  test("a candidate's objects land loose, as git's own receive of a small push: no pack to fsync, none more to search",
    async () => {
      const { repo, store, base, commit } = await createStore();
      const packs = () => readdirSync(join(store, "objects", "pack")).filter((name) => name.endsWith(".pack"));
      const before = packs();
      const big = Array.from({ length: 5000 }, (_, index) => `line ${index}`).join("\n");
      commit("a.txt", `${big}\n`);
      // The second admit builds on the first's commit, which the store now holds whole.
      const head = commit("a.txt", `${big}\nmore\n`);
      const held = commit("b.txt", "held\n");
      expect(await admitCommits(store, repo, [git(repo, ["rev-parse", `${head}~1`]).trim(), base])).toBeUndefined();
      expect(await admitCommits(store, repo, [held])).toBeUndefined();
      expect(packs()).toEqual(before);
      expect(git(store, ["cat-file", "-t", head]).trim()).toBe("commit");
      expect(git(store, ["show", `${head}:a.txt`])).toBe(`${big}\nmore\n`);
      git(store, ["fsck", "--strict", "--no-dangling"]);
    });

  test("objects packed in the shared store: git's pipe, made for the pipe (no delta search, nothing compressed)",
    async () => {
      const { repo, store, base, commit } = await createStore();
      const head = commit("a.txt", `${"x".repeat(100_000)}\n`);
      git(repo, ["repack", "-adq"]);
      git(repo, ["prune-packed"]);
      const trace = join(repo, ".git", "trace.log");
      process.env.GIT_TRACE = trace;
      try {
        expect(await admitCommits(store, repo, [head, base])).toBeUndefined();
      } finally {
        delete process.env.GIT_TRACE;
      }
      const lines = readFileSync(trace, "utf8").split("\n");
      const packs = lines.filter((line) => line.includes("built-in: git pack-objects"));
      expect(packs).toHaveLength(1);
      expect(packs[0]).toContain("--window=0 --compression=0");
      expect(git(store, ["show", `${head}:a.txt`])).toBe(`${"x".repeat(100_000)}\n`);
    });

  test("a ref file cut short (a crash mid-write) is not believed: taken again, named whole", async () => {
    const { repo, store, base, commit } = await createStore();
    const head = commit("a.txt", "10\n");
    writeFileSync(join(store, "refs", "verified", head), "");
    const admitted = await countSpawns(() => admitCommits(store, repo, [head, base]));
    expect(admitted).toEqual({ refused: undefined, spawned: 1 });
    expect(readFileSync(join(store, "refs", "verified", head), "utf8")).toBe(`${head}\n`);
    git(store, ["fsck", "--strict", "--no-dangling"]);
  });

  test("a store that holds no commit yet: the fetch, which negotiates, takes it", async () => {
    const repo = createRepo({ "a.txt": "1\n" });
    const store = join(makeTempDir(), "objects.git");
    dirs.push(repo, join(store, ".."));
    await openVerifierStore(store);
    const head = git(repo, ["rev-parse", "HEAD"]).trim();
    expect(await countSpawns(() => admitCommits(store, repo, [head]))).toEqual({ refused: undefined, spawned: 1 });
    expect(git(store, ["rev-parse", `refs/verified/${head}`]).trim()).toBe(head);
  });

  test("a blob rewritten in the shared store: refused, no ref, as the fetch refuses it", async () => {
    const { repo, store, base, commit } = await createStore();
    const head = commit("a.txt", "honest\n");
    const blob = git(repo, ["rev-parse", `${head}:a.txt`]).trim();
    const file = join(repo, ".git", "objects", blob.slice(0, 2), blob.slice(2));
    const forged = Buffer.from("forged\n");
    writeFileSync(`${file}.tmp`, deflateSync(Buffer.concat([Buffer.from(`blob ${forged.length}\0`), forged])));
    renameSync(`${file}.tmp`, file);
    const refused = await admitCommits(store, repo, [head, base]);
    expect(refused).toMatch(new RegExp(`^${head.slice(0, 7)} could not be taken into the verifier's own object store: `
      + "(fatal|error): .* — an object in the repo's shared store is missing or does not match its name$"));
    expect(git(store, ["for-each-ref", "refs/verified"]).trim().split("\n")).toHaveLength(1);
  });
});
