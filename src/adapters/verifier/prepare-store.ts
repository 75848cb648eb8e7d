import { mkdir } from "node:fs/promises";
import { OrgError } from "../../org/errors.js";
import { verifierStorePaths } from "../../org/paths.js";
import { admitCommits, openVerifierStore } from "../git/verifier-store.js";
import { recordProtectedHashes } from "./protected-check.js";

/**
 * At `org up`, before any agent starts: the verifier's own store holds the base (its tree alone, fetched and checked)
 * and state/verifier/protected.json records the base's protected files from it. On a later `org up` both stay as they
 * are; a new base is taken then, while no agent runs, and recorded beside nothing of the old one.
 */
export async function prepareVerifierStore(input: { repo: string; state: string; base: string; protected: string[] }): Promise<void> {
  const store = verifierStorePaths(input.state);
  await mkdir(store.dir, { recursive: true });
  await openVerifierStore(store.repo);
  const refused = await admitCommits(store.repo, input.repo, [input.base], 1);
  if (refused) throw new OrgError(`the base cannot be taken into the verifier's own object store: ${refused} — run \`git fsck\` in ${input.repo} and repair it first`, "objects");
  await recordProtectedHashes({ store: store.repo, hashes: store.hashes, base: input.base, rules: input.protected });
}
