// The verifier reads a branch's commit off the repo's ref files when they say it plainly; anything else asks git.
import { join } from "node:path";
import { expect, test } from "vitest";
import { readBranchHead } from "../../../src/adapters/git/branch-head.js";
import { usage } from "../../../src/adapters/usage/counters.js";
import { createVerifierPort } from "../../../src/adapters/verifier/port.js";
import { createBranchRepo, git, removeAfterEachTest } from "../../helpers/temp-repo.js";

const removeLater = removeAfterEachTest();

function makeRepo() {
  const { repo, head } = createBranchRepo(["org/t/a-1", "org/t/a-10"]);
  removeLater(repo);
  const asked: string[] = [];
  const ask = (branch: string) => async () => (asked.push(branch), "from git");
  const read = (branch: string) => readBranchHead(join(repo, ".git"), branch, ask(branch));
  return { repo, head, asked, read };
}

test("a loose branch, a packed one and a missing one are read without git, as git reads them", async () => {
  const { repo, head, asked, read } = makeRepo();
  expect(await read("org/t/a-1")).toBe(head);
  git(repo, ["pack-refs", "--all"]);
  git(repo, ["update-ref", "refs/heads/org/t/a-10", git(repo, ["commit-tree", "HEAD^{tree}", "-m", "x"]).trim()]);
  expect(await read("org/t/a-1")).toBe(head);
  expect(await read("org/t/a-10")).toBe(git(repo, ["rev-parse", "refs/heads/org/t/a-10"]).trim());
  expect(await read("org/t/a-2")).toBeUndefined();
  expect(asked).toEqual([]);
});

test("a branch made symbolic, or a folder where its file would be, is git's to answer", async () => {
  const { repo, asked, read } = makeRepo();
  git(repo, ["symbolic-ref", "refs/heads/org/t/a-1", "refs/heads/main"]);
  expect(await read("org/t/a-1")).toBe("from git");
  expect(await read("org/t")).toBe("from git");
  expect(asked).toEqual(["org/t/a-1", "org/t"]);
});

test("the verifier port's branchHead, after a discard, starts no git for a plain branch", async () => {
  const { repo, head } = makeRepo();
  const port = createVerifierPort({ repo, state: join(repo, "state") });
  const before = usage.spawned;
  expect(await port.branchHead("org/t/a-1")).toBe(head);
  expect(usage.spawned).toBe(before);
});
