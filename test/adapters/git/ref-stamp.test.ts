import { afterEach, expect, test } from "vitest";
import { RefStamp } from "../../../src/adapters/git/ref-stamp.js";
import { createRepo, git, removeDir } from "../../helpers/temp-repo.js";

let repo: string | undefined;
afterEach(() => {
  if (repo) removeDir(repo);
  repo = undefined;
});

test("the verifier's ref stamp: moved after a commit, a new branch or a pack; still otherwise", async () => {
  repo = createRepo({ "a.txt": "a\n" });
  git(repo, ["branch", "org/t/a-1"]);
  const stamp = new RefStamp(repo, "refs/heads/org/t");
  // Looks taken well after the changes, so the clock's granularity does not make every look count as moved.
  const later = () => Date.now() + 5000;
  expect(await stamp.mayHaveMoved(later())).toBe(true);
  expect(await stamp.mayHaveMoved(later())).toBe(false);
  git(repo, [
    "update-ref",
    "refs/heads/org/t/a-1",
    git(repo, ["commit-tree", "-p", "HEAD", "-m", "next", "HEAD^{tree}"]).trim(),
  ]);
  expect(await stamp.mayHaveMoved(later())).toBe(true);
  expect(await stamp.mayHaveMoved(later())).toBe(false);
  git(repo, ["branch", "org/t/a-2"]);
  expect(await stamp.mayHaveMoved(later())).toBe(true);
  git(repo, ["pack-refs", "--all"]);
  expect(await stamp.mayHaveMoved(later())).toBe(true);
  expect(await stamp.mayHaveMoved(later())).toBe(false);
  // Right after a change the time cannot be trusted: a second change in the same tick would leave it as it was.
  git(repo, ["branch", "org/t/a-3"]);
  await stamp.mayHaveMoved(later());
  expect(await stamp.mayHaveMoved(Date.now())).toBe(true);
});
