// The org's heads as one listing: a listing under a second old serves the next look, marked not fresh.
import { afterEach, expect, test } from "vitest";
import { OrgHeadsReader } from "../../../src/daemon/verifier/org-heads.js";
import type { OrgRecord } from "../../../src/domain/state.js";
import { createRepo, git, removeDir } from "../../helpers/temp-repo.js";

let root: string | undefined;
afterEach(() => {
  if (root) removeDir(root);
  root = undefined;
});

test("a listing moments old is reused, not fresh; a second on, the heads are listed again", async () => {
  root = createRepo({ "a.txt": "1\n" });
  const first = git(root, ["rev-parse", "HEAD"]).trim();
  git(root, ["branch", "org/t/a-1"]);
  const reader = new OrgHeadsReader({ repo: root, name: "t" } as OrgRecord, new Map([["a-1", {}]]));
  const at = Date.now();
  expect(await reader.read(at)).toMatchObject({ fresh: true, heads: new Map([["a-1", first]]) });
  git(root, ["commit", "-q", "--allow-empty", "-m", "next"]);
  const next = git(root, ["rev-parse", "HEAD"]).trim();
  git(root, ["branch", "-f", "org/t/a-1", next]);
  expect(await reader.read(at + 500)).toMatchObject({ fresh: false, heads: new Map([["a-1", first]]) });
  expect(await reader.read(at + 1000)).toMatchObject({ fresh: true, heads: new Map([["a-1", next]]) });
});

test("the best the verifier moved itself is what a reused listing says; a fresh one is git's word", async () => {
  root = createRepo({ "a.txt": "1\n" });
  const first = git(root, ["rev-parse", "HEAD"]).trim();
  git(root, ["branch", "org/t/best"]);
  const reader = new OrgHeadsReader({ repo: root, name: "t" } as OrgRecord, new Map());
  const at = Date.now();
  expect((await reader.read(at)).best).toBe(first);
  reader.noteBest("f".repeat(40));
  expect(await reader.read(at + 10)).toMatchObject({ fresh: false, best: "f".repeat(40) });
  expect(await reader.read(at + 1000)).toMatchObject({ fresh: true, best: first });
});
