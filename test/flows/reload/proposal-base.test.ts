// agents/<agent>/proposal-base.json through its owner: a damaged one reads as none, so the proposal is refused.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { hashFiles, readProposalBase, seedProposal } from "../../../src/flows/reload/proposal.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";

let root: string | undefined;
afterEach(() => {
  if (root) removeDir(root);
  root = undefined;
});

function setUp(): { state: string; file: string } {
  root = makeTempDir("org-proposal-base-");
  writeFileSync(join(root, "org.yaml"), "name: x\n");
  mkdirSync(join(root, "state", "agents", "meta-1"), { recursive: true });
  return { state: join(root, "state"), file: join(root, "state", "agents", "meta-1", "proposal-base.json") };
}

test("seeding the copy records the config's hash, read back; none before the copy was seeded", async () => {
  const { state } = setUp();
  expect(await readProposalBase(state, "meta-1")).toBeUndefined();
  await seedProposal(root!, state, "meta-1", ["org.yaml"]);
  expect(await readProposalBase(state, "meta-1")).toBe(await hashFiles(root!, ["org.yaml"]));
});

test.each([
  ["cut short", '{"hash": "ab'],
  ["a hash of another type", '{"hash": 12}'],
])("a base %s reads as none, and is left as it was", async (_, text) => {
  const { state, file } = setUp();
  writeFileSync(file, text);
  expect(await readProposalBase(state, "meta-1")).toBeUndefined();
  expect(readFileSync(file, "utf8")).toBe(text);
});
