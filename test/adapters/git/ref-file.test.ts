// The daemon's own write of an agent's ref: as git's files backend writes it, with no reflog written through a link.
import { execFileSync } from "node:child_process";
import {
  existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { moveRefFile, STALE_LOCK_MS } from "../../../src/adapters/git/ref-file.js";
import { createBranchRepo, git, removeAfterEachTest } from "../../helpers/temp-repo.js";

const removeLater = removeAfterEachTest();

// main and a second commit, with org/t/a-1 at main and its reflog linked to a file outside the repo's refs.
function makeRepo() {
  const { repo, head: base } = createBranchRepo(["org/t/a-1"]);
  removeLater(repo);
  git(repo, ["commit", "-q", "--allow-empty", "-m", "two"]);
  const next = git(repo, ["rev-parse", "HEAD"]).trim();
  const common = join(repo, ".git");
  const victim = join(repo, "victim.txt");
  writeFileSync(victim, "mine\n");
  mkdirSync(join(common, "logs", "refs", "heads", "org", "t"), { recursive: true });
  rmSync(join(common, "logs", "refs", "heads", "org", "t", "a-1"), { force: true });
  symlinkSync(victim, join(common, "logs", "refs", "heads", "org", "t", "a-1"));
  return { repo, common, base, next, victim, ref: "refs/heads/org/t/a-1" };
}

describe("moveRefFile", () => {
  test("moves the branch from the commit it was at, and appends nothing to its linked log", async () => {
    const { repo, common, base, next, victim, ref } = makeRepo();
    expect(await moveRefFile({ top: common, common, ref, commit: next, from: base })).toEqual({ kind: "moved" });
    expect(git(repo, ["rev-parse", ref]).trim()).toBe(next);
    expect(readFileSync(victim, "utf8")).toBe("mine\n");
    expect(existsSync(join(common, `${ref}.lock`))).toBe(false);
  });

  test("a branch moved meanwhile, or locked by another git, is refused with git's reason, left as it was", async () => {
    const { repo, common, base, next, ref } = makeRepo();
    expect(await moveRefFile({ top: common, common, ref, commit: base, from: next })).toEqual({
      kind: "refused", reason: `cannot lock ref '${ref}': is at ${base} but expected ${next}`,
    });
    writeFileSync(join(common, `${ref}.lock`), "");
    expect(await moveRefFile({ top: common, common, ref, commit: next })).toEqual({
      kind: "refused", reason: `cannot lock ref '${ref}': '${join(common, ref)}.lock' exists`,
    });
    expect(git(repo, ["rev-parse", ref]).trim()).toBe(base);
    // A FIFO in its place is no ref, and is never opened to wait on.
    rmSync(join(common, `${ref}.lock`));
    rmSync(join(common, ref));
    execFileSync("mkfifo", [join(common, ref)]);
    expect(await moveRefFile({ top: common, common, ref, commit: next, from: base })).toEqual({
      kind: "refused", reason: `cannot lock ref '${ref}': is at not a ref file but expected ${base}`,
    });
  });

  test("a lock left by a process killed holding it (older than git ever holds one) is taken over; " +
    "a fresh one, or a folder in its place, still refuses", async () => {
    const { repo, common, base, next, ref } = makeRepo();
    const lock = join(common, `${ref}.lock`);
    writeFileSync(lock, "");
    const old = (Date.now() - STALE_LOCK_MS - 1000) / 1000;
    utimesSync(lock, old, old);
    expect(await moveRefFile({ top: common, common, ref, commit: next, from: base })).toEqual({ kind: "moved" });
    expect([git(repo, ["rev-parse", ref]).trim(), existsSync(lock)]).toEqual([next, false]);
    mkdirSync(lock);
    utimesSync(lock, old, old);
    expect(await moveRefFile({ top: common, common, ref, commit: base, from: next })).toEqual({
      kind: "refused", reason: `cannot lock ref '${ref}': '${join(common, ref)}.lock' exists`,
    });
    expect(git(repo, ["rev-parse", ref]).trim()).toBe(next);
  });

  test("a branch made symbolic (to main) is replaced, main untouched; a packed one is read", async () => {
    const { repo, common, base, next, ref } = makeRepo();
    writeFileSync(join(common, ref), "ref: refs/heads/main\n");
    expect(await moveRefFile({ top: common, common, ref, commit: base, from: next })).toEqual({ kind: "moved" });
    const after = [readFileSync(join(common, ref), "utf8"), git(repo, ["rev-parse", "main"]).trim()];
    expect(after).toEqual([`${base}\n`, next]);
    git(repo, ["pack-refs", "--all"]);
    expect(lstatSync(join(common, ref), { throwIfNoEntry: false })).toBeUndefined();
    expect(await moveRefFile({ top: common, common, ref, commit: next, from: base })).toEqual({ kind: "moved" });
    expect(git(repo, ["rev-parse", ref]).trim()).toBe(next);
  });
});
