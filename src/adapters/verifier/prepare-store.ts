import { mkdir } from "node:fs/promises";
import { OrgError } from "../../domain/errors.js";
import { verifierStorePaths } from "../../domain/paths.js";
import { admitCommits, openVerifierStore } from "../git/verifier-store.js";
import { recordProtectedHashes } from "./protected-check.js";

/**
 * At `org up`, before any agent starts: the verifier's own store holds the base (its tree alone, fetched and checked)
 * and state/verifier/protected.json records the base's protected files from it. On a later `org up` both stay as they
 * are; a new base is taken then, while no agent runs, and recorded in place of the old one.
 */
export async function prepareVerifierStore(input: { repo: string; state: string; base: string; protected: string[] })
  : Promise<void> {
  await openVerifierObjects(input);
  const store = verifierStorePaths(input.state);
  await recordProtectedHashes({ store: store.repo, hashes: store.hashes, base: input.base, rules: input.protected });
}

/**
 * The store opened, or made when missing; a broken one is moved aside and said so. Without the base it takes the
 * base first, alone; a base it cannot take (an object rewritten in the shared store) is a clear refusal.
 */
export async function openVerifierObjects(
  input: { repo: string; state: string; base?: string; say?: (line: string) => void },
): Promise<void> {
  const store = verifierStorePaths(input.state);
  await mkdir(store.dir, { recursive: true });
  const opened = await openVerifierStore(store.repo);
  if (opened.kind === "remade") {
    input.say?.(`verifier: its object store ${store.repo} was broken: moved to ${opened.brokenTo} and made again`);
  }
  if (!input.base) return;
  const refused = await admitCommits(store.repo, input.repo, [input.base], 1);
  if (!refused) return;
  throw new OrgError("the base cannot be taken into the verifier's own object store, so nothing can be verified: "
    + `${refused}`
    + ` — run \`git fsck\` in ${input.repo} and repair it, or start the org on another base`, "objects");
}
