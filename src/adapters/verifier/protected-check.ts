import { createHash } from "node:crypto";
import { lstat, readFile, readlink } from "node:fs/promises";
import { join } from "node:path";
import { OrgError } from "../../domain/errors.js";
import { coversRules, findTampered, listProtected, parseProtectedRecord, recordProtected }
  from "../../domain/experiments/protected-files.js";
import type { FoundFile, ProtectedFile, ProtectedRecord } from "../../domain/experiments/protected-files.js";
import { readJson, writeJsonAtomic } from "../fs/files.js";
import { runGit } from "../git/run.js";

/**
 * The base's protected files from `hashes`, recorded there from the verifier's own store when the file lacks this base
 * or a rule: that store's objects came in checked, named by their content, so its base tree is the base's and no
 * agent could write it (the repo's shared store, which agents write, is never read for this). A file unreadable or
 * of another shape is recorded again the same way: it holds nothing the store cannot give again.
 */
export async function recordProtectedHashes(input: { store: string; hashes: string; base: string; rules: string[] })
  : Promise<ProtectedRecord> {
  const { store, hashes, base, rules } = input;
  const current = parseProtectedRecord(await readJson(hashes).catch(() => undefined));
  if (current && coversRules(current, base, rules)) return current;
  const wanted = current?.base === base ? [...new Set([...Object.keys(current.rules), ...rules])] : rules;
  const listed = await runGit(["ls-tree", "-r", "-z", "--full-tree", base], { cwd: store, timeoutMs: 120_000 });
  if (listed.exitCode !== 0) {
    const why = listed.stderr.trim();
    throw new OrgError(`reading the base ${base.slice(0, 7)} in the verifier's store ${store} failed: ${why}`, "git");
  }
  const entries = listed.stdout.split("\0").filter(Boolean).map((line) => {
    // "<mode> <type> <name>\t<path>"
    const tab = line.indexOf("\t");
    const [mode, , blob] = line.slice(0, tab).split(" ");
    return { path: line.slice(tab + 1), file: { mode: mode!, blob: blob! } };
  });
  const record = recordProtected(base, entries, wanted, new Date());
  await writeJsonAtomic(hashes, record);
  return record;
}

// A checkout is cleaned and checked out again before every run, but git leaves unchanged files as they are: their
// content is hashed again only when lstat says the file changed (ctime moves on every write, and no one sets it back).
const known = new Map<string, { stamp: string; found: ProtectedFile }>();

/** Why the checkout's protected files are not the base's as recorded; undefined when every one matches. */
export async function checkProtectedFiles(checkout: string, record: ProtectedRecord, rules: string[]) {
  const expected = listProtected(record, rules);
  const found = new Map<string, FoundFile>();
  for (const [path, want] of expected) {
    found.set(path, await hashFile(join(checkout, path), want.blob.length === 64 ? "sha256" : "sha1"));
  }
  return findTampered(expected, found);
}

/** The git blob name and mode of what is at `file`, read without following a link; undefined when there is none. */
async function hashFile(file: string, algorithm: "sha1" | "sha256"): Promise<FoundFile> {
  const info = await lstat(file, { bigint: true }).catch(() => undefined);
  if (!info || !(info.isFile() || info.isSymbolicLink())) return undefined;
  const stamp = `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}:${info.mode}`;
  const cached = known.get(file);
  if (cached?.stamp === stamp) return cached.found;
  const content = info.isSymbolicLink() ? await readlink(file, { encoding: "buffer" }) : await readFile(file);
  const blob = createHash(algorithm).update(`blob ${content.length}\0`).update(content).digest("hex");
  const found = { mode: info.isSymbolicLink() ? "120000" : (info.mode & 0o111n) !== 0n ? "100755" : "100644", blob };
  known.set(file, { stamp, found });
  return found;
}
