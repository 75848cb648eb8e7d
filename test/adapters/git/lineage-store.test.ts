// The lineage's graph read from a real git store: abbreviated (legacy) names resolved, the base the floor, and a
// store that is missing said so.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { readCommitGraph, resolveStoreCommits } from "../../../src/adapters/git/commit-graph.js";
import { createRepo, git, removeDir } from "../../helpers/temp-repo.js";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

test("names resolve to full hashes, the graph stops at the base, a missing store is a problem", async () => {
  const repo = createRepo({ "a.txt": "1\n" });
  dirs.push(repo);
  const commit = (value: string) => {
    writeFileSync(join(repo, "a.txt"), `${value}\n`);
    git(repo, ["commit", "-qam", value]);
    return git(repo, ["rev-parse", "HEAD"]).trim();
  };
  const base = git(repo, ["rev-parse", "HEAD"]).trim();
  const one = commit("2");
  const two = commit("3");
  const store = join(repo, ".git");
  const resolved = await resolveStoreCommits(store, [one.slice(0, 7), two, "0000000", "not-a-name"]);
  expect([...resolved]).toEqual([[one.slice(0, 7), one], [two, two]]);
  const read = (commits: string[]) => readCommitGraph(store, commits, base) as Promise<Map<string, string[]>>;
  const graph = async (commits: string[]) => [...(await read(commits))];
  expect(await graph([two])).toEqual([[two, [one]], [one, [base]]]);
  // A keep the store lacks is left out of the graph: the lineage names it unknown.
  expect(await graph([two, "f".repeat(40)])).toHaveLength(2);
  const missing = join(repo, "no-store");
  const problem = `the verifier's store ${missing} does not exist`;
  expect(await readCommitGraph(missing, [two], base)).toEqual({ problem });
});
