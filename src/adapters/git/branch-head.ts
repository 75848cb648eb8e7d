import { lstat } from "node:fs/promises";
import { join } from "node:path";
import { readUntrusted } from "../fs/untrusted.js";

const HASH = /^([0-9a-f]{40}|[0-9a-f]{64})$/;
// Only the form git writes (the hash, one newline): a padded or odd file is one git calls broken, so git answers it.
const LOOSE = /^([0-9a-f]{40}|[0-9a-f]{64})\n?$/;

/**
 * The commit `refs/heads/<branch>` names in the repo whose common git folder is `common`, read as git's files backend
 * keeps it: its loose file (no link followed), else its line in packed-refs; undefined when neither has it. Anything
 * the files do not say plainly (a symbolic branch, a reftable repo, a file that cannot be read) is `ask`'s to answer.
 */
export async function readBranchHead(
  common: string, branch: string, ask: () => Promise<string | undefined>,
): Promise<string | undefined> {
  if (await lstat(join(common, "reftable")).then(() => true, () => false)) return ask();
  const ref = `refs/heads/${branch}`;
  try {
    const loose = await readUntrusted(common, join(common, ref), 4096);
    if (loose !== undefined) return LOOSE.exec(loose)?.[1] ?? ask();
    // A branch packed away; the loose file, written after, would win: it was read first and is not there.
    const packed = (await readUntrusted(common, join(common, "packed-refs"))) ?? "";
    const at = packed.indexOf(` ${ref}\n`);
    if (at < 0) return packed.endsWith(` ${ref}`) ? ask() : undefined;
    const hash = packed.slice(packed.lastIndexOf("\n", at) + 1, at);
    return HASH.test(hash) ? hash : ask();
  } catch {
    return ask();
  }
}
