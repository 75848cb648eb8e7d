// A repo and the verifier's own object store beside it, already holding the repo's first commit: what the admit's
// tests build on. Both folders go into `dirs`, for the test file's afterEach to remove.
import { join } from "node:path";
import { expect } from "vitest";
import { admitCommits, openVerifierStore } from "../../src/adapters/git/verifier-store.js";
import { createRepo, git, makeTempDir } from "./temp-repo.js";

export async function createAdmittedRepo(dirs: string[], files: Record<string, string> = { "a.txt": "1\n" }) {
  const repo = createRepo(files);
  const store = join(makeTempDir(), "objects.git");
  dirs.push(repo, join(store, ".."));
  await openVerifierStore(store);
  const base = git(repo, ["rev-parse", "HEAD"]).trim();
  expect(await admitCommits(store, repo, [base], 1)).toBeUndefined();
  return { repo, store, base, objects: join(repo, ".git", "objects") };
}
