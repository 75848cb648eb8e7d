// The warm worker's read-ahead of a submit: it may read an org's files, never change one, and never fail the worker.
import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { warmSubmit } from "../../src/flows/submit-warm.js";
import { createRepo, git, makeTempDir, removeDir, writeFiles } from "../helpers/temp-repo.js";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

/** Every file and folder under `dir`: its kind, size, time and content, to compare before and after. */
function snapshot(dir: string): Record<string, string> {
  const seen: Record<string, string> = {};
  const walk = (path: string) => {
    const info = lstatSync(path);
    const content = info.isFile() ? readFileSync(path, "utf8") : "";
    seen[path] = `${info.mode} ${info.size} ${info.mtimeMs} ${content}`;
    if (info.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(dir);
  return seen;
}

test("it reads a running org's record, queue, ledger and org.yaml and leaves every file as it was", async () => {
  const yaml = "name: w\ngpus: none\nroles:\n  a: { prompt: p.md, runtime: claude }\ncontracts: { generator: a }\n";
  const root = createRepo({ "org.yaml": yaml, "p.md": "# a\n" });
  dirs.push(root);
  const base = git(root, ["rev-parse", "HEAD"]).trim();
  const worktree = join(root, "worktrees", "a-1");
  git(root, ["worktree", "add", "-q", "-b", "org/w/a-1", worktree]);
  const agent = { name: "a-1", role: "a", worktree, branch: "org/w/a-1" };
  writeFiles(root, {
    "state/org.json": JSON.stringify({ name: "w", repo: root, baseCommit: base, agents: [agent] }),
    "state/agents/a-1/ledger.json": JSON.stringify({ best: null, lastVerified: null }),
    "state/queue/.keep": "",
  });
  const before = snapshot(root);
  await expect(warmSubmit(root)).resolves.toBeUndefined();
  expect(snapshot(root)).toEqual(before);
});

test("a folder with no org, or a record it cannot read, is no error: the submit reads for itself", async () => {
  const empty = makeTempDir("org-warm-");
  dirs.push(empty);
  await expect(warmSubmit(empty)).resolves.toBeUndefined();
  writeFiles(empty, { "state/org.json": "{ cut" });
  await expect(warmSubmit(empty)).resolves.toBeUndefined();
  expect(readdirSync(empty)).toEqual(["state"]);
});
