import { createHash } from "node:crypto";
import { join } from "node:path";
import { inflateSync } from "node:zlib";
import { openUntrusted } from "../fs/untrusted.js";

const SHA1 = /^[0-9a-f]{40}$/;
const TREE_LINE = /^tree ([0-9a-f]{40})\n/;
// A commit object is a few hundred bytes; a larger one (a long message) is git's to read.
const MAX_BYTES = 64 * 1024;

/**
 * The tree of `commit` read off its loose object in the bare repository `repo` (a candidate the verifier's store took
 * loose): no git process. Believed only when the object's bytes hash to its name and say `commit` and `tree` as git
 * writes them; anything else (packed, a link, a forged or odd object, SHA-256) is undefined, for git to answer.
 */
export async function readLooseCommitTree(repo: string, commit: string): Promise<string | undefined> {
  if (!SHA1.test(commit)) return undefined;
  const handle = await openUntrusted(repo, join(repo, "objects", commit.slice(0, 2), commit.slice(2)))
    .catch(() => undefined);
  if (!handle) return undefined;
  try {
    if ((await handle.stat()).size > MAX_BYTES) return undefined;
    const object = inflateSync(await handle.readFile(), { maxOutputLength: MAX_BYTES * 16 });
    if (createHash("sha1").update(object).digest("hex") !== commit) return undefined;
    const nul = object.indexOf(0);
    if (nul < 0 || object.subarray(0, nul).toString("latin1") !== `commit ${object.length - nul - 1}`) return undefined;
    return TREE_LINE.exec(object.subarray(nul + 1, nul + 1 + 46).toString("latin1"))?.[1];
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}
