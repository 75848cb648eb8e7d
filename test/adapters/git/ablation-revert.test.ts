// org's reverts on a real git store: a clean revert per change, a conflicting one paired with the change it conflicts
// with, the same commits on a second plan, and the agents' repo untouched.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { createRevertPort } from "../../../src/adapters/git/revert-changes.js";
import { planVariants, type KeptChange } from "../../../src/domain/ablation/index.js";
import { createRepo, git, removeDir } from "../../helpers/temp-repo.js";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

test("each change reverted on the best; one whose lines later ones rewrote goes with them, or was undone", async () => {
  const repo = createRepo({ "train.py": "lr = 1\ndepth = 2\n", "notes.md": "a\n" });
  dirs.push(repo);
  const commit = (file: string, text: string, subject: string) => {
    writeFileSync(join(repo, file), text);
    git(repo, ["commit", "-qam", subject]);
    return git(repo, ["rev-parse", "HEAD"]).trim();
  };
  const base = git(repo, ["rev-parse", "HEAD"]).trim();
  const a1 = commit("train.py", "lr = 2\ndepth = 2\n", "lr 2");
  const b1 = commit("train.py", "lr = 3\ndepth = 2\n", "lr 3");
  const c1 = commit("notes.md", "b\n", "notes");
  // On the line next to lr, which b1 rewrote: no conflict without context lines.
  const d1 = commit("train.py", "lr = 3\ndepth = 4\n", "depth 4");
  const e1 = commit("notes.md", "a\n", "notes back");
  const change = (commit: string, from: string): KeptChange => ({
    commit, from, agent: "r-1", kind: "keep", description: commit.slice(0, 7), metric: 1,
  });
  const changes = [change(a1, base), change(b1, a1), change(c1, b1), change(d1, c1), change(e1, d1)];
  const scratch = mkdtempSync(join(tmpdir(), "org-ablate-store-"));
  dirs.push(scratch);
  const store = join(scratch, "objects.git");
  git(scratch, ["clone", "-q", "--bare", repo, store]);
  const plan = () => planVariants(changes, createRevertPort({ store, checkout: join(scratch, "ablate"), target: e1 }));
  const plans = await plan();
  const short = (commit: string) => commit.slice(0, 7);
  expect(plans.map((one) => [one.reverted.map(short), one.entangled?.files, one.skipped])).toEqual([
    [[short(a1), short(b1)], ["train.py"], undefined], [[short(b1)], undefined, undefined],
    [[short(c1), short(e1)], ["notes.md"], "nothing of it is left in the best: later changes undid it"],
    [[short(d1)], undefined, undefined], [[short(e1)], undefined, undefined],
  ]);
  const show = (commit: string, file: string) => git(store, ["show", `${commit}:${file}`]);
  expect(show(plans[0]!.commit!, "train.py")).toBe("lr = 1\ndepth = 4\n");
  expect(show(plans[1]!.commit!, "train.py")).toBe("lr = 2\ndepth = 4\n");
  expect(show(plans[3]!.commit!, "train.py")).toBe("lr = 3\ndepth = 2\n");
  expect(show(plans[4]!.commit!, "notes.md")).toBe("b\n");
  // Made again, from a checkout that already exists: the very same commits, so nothing is measured twice.
  expect((await plan()).map((one) => one.commit)).toEqual(plans.map((one) => one.commit));
  expect(git(store, ["rev-parse", `refs/verified/${plans[1]!.commit!}`]).trim()).toBe(plans[1]!.commit);
  expect(git(repo, ["status", "--porcelain"])).toBe("");
  expect(git(repo, ["rev-parse", "HEAD"]).trim()).toBe(e1);
});
