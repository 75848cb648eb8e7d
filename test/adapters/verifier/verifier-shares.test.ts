// org.yaml's share in the verifier's checkouts: a run needs the untracked .venv or data every worktree has.
import { lstatSync, mkdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { createVerifierPort } from "../../../src/adapters/verifier/port.js";
import { prepareVerifierStore } from "../../../src/adapters/verifier/prepare-store.js";
import { createRepo, git, removeDir } from "../../helpers/temp-repo.js";

let root: string | undefined;
afterEach(() => {
  if (root) removeDir(root);
  root = undefined;
});

test("a linked share is a link to the repo's, a copied one is copied afresh for every run", async () => {
  root = createRepo({ "train.sh": "exit 0\n" });
  // Untracked, as a .venv and a data file are.
  mkdirSync(join(root, ".venv", "bin"), { recursive: true });
  writeFileSync(join(root, ".venv", "bin", "python"), "#!/bin/sh\n");
  writeFileSync(join(root, "data.txt"), "pristine\n");
  const base = git(root, ["rev-parse", "main"]).trim();
  const state = join(root, "state");
  await prepareVerifierStore({ repo: root, state, base, protected: ["train.sh"] });
  const shares = [
    { path: ".venv", mode: "link" as const },
    { path: "data.txt", mode: "copy" as const },
    { path: "gone", mode: "link" as const },
  ];
  const port = createVerifierPort({ repo: root, state, baseCommit: base, shares });
  const checkout = await port.prepareCheckout("cpu0", base);
  expect(readlinkSync(join(checkout, ".venv"))).toBe(join(root, ".venv"));
  expect(lstatSync(join(checkout, "data.txt")).isSymbolicLink()).toBe(false);
  // A run that writes its copy leaves the next run a fresh one, and the repo's as it was.
  writeFileSync(join(checkout, "data.txt"), "written by a run\n");
  const again = await port.prepareCheckout("cpu0", base);
  expect(readFileSync(join(again, "data.txt"), "utf8")).toBe("pristine\n");
  expect(readFileSync(join(root, "data.txt"), "utf8")).toBe("pristine\n");
});
