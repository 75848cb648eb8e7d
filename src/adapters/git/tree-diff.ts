import type { ChangedPath } from "../../domain/experiments/path-rules.js";
import { parseTreeEntries } from "./object-format.js";
import type { StoreObject } from "./store-objects.js";

const TREE = "40000";
const LINK = "120000";
const GITLINK = "160000";
const MODES = new Set([TREE, LINK, GITLINK, "100644", "100755"]);
// Past these the diff is git's, in its own process and under its timeout: a tree naming one subtree twice, nested 30
// deep, is 31 small objects (an admit takes them at once) and 2^30 paths, which this walk would read on the daemon's
// own thread for days. An honest change reads a few trees on the paths it touches.
const MAX_READS = 4096;
const MAX_BYTES = 8 * 1024 * 1024;

interface Entry { mode: string; hash: string }
type Read = (hash: string) => StoreObject | undefined;
interface Budget { reads: number; bytes: number }

/** An object not read plainly: git answers instead. */
class Unreadable extends Error {}

/**
 * What `git diff --raw --no-renames` lists from the commit `from` to `to`, read from their trees by node: each path
 * whose blob or mode differs, A, D, M or T (a file, a link and a submodule are three types), in git's order (a path's
 * bytes); a new link carries its target. Subtrees with the same name on both sides are not read. Undefined when an
 * object cannot be read plainly (or a tree names a mode git would not write): the caller asks git.
 */
export function diffCommits(read: Read, from: string, to: string): ChangedPath[] | undefined {
  const budget: Budget = { reads: MAX_READS, bytes: MAX_BYTES };
  try {
    const changes: { bytes: Buffer; change: ChangedPath }[] = [];
    const emit = (bytes: Buffer, status: string, entry?: Entry) => {
      const change: ChangedPath = { status, path: bytes.toString("utf8") };
      if (entry?.mode === LINK) change.link = readObject(read, budget, entry.hash, "blob").toString("utf8");
      changes.push({ bytes, change });
    };
    const walk = (old: string | undefined, now: string | undefined, prefix: Buffer) => {
      const before = old ? readTree(read, budget, old) : new Map<string, Entry & { name: Buffer }>();
      const after = now ? readTree(read, budget, now) : new Map<string, Entry & { name: Buffer }>();
      for (const key of new Set([...before.keys(), ...after.keys()])) {
        const was = before.get(key);
        const is = after.get(key);
        if (was && is && was.mode === is.mode && was.hash === is.hash) continue;
        const name = (is ?? was)!.name;
        const path = prefix.length === 0 ? name : Buffer.concat([prefix, Buffer.from("/"), name]);
        const wasTree = was?.mode === TREE;
        const isTree = is?.mode === TREE;
        if (wasTree || isTree) walk(wasTree ? was.hash : undefined, isTree ? is.hash : undefined, path);
        const wasFile = was && !wasTree ? was : undefined;
        const isFile = is && !isTree ? is : undefined;
        if (wasFile && isFile) emit(path, typeOf(wasFile.mode) === typeOf(isFile.mode) ? "M" : "T", isFile);
        else if (wasFile) emit(path, "D");
        else if (isFile) emit(path, "A", isFile);
      }
    };
    walk(treeOf(read, budget, from), treeOf(read, budget, to), Buffer.alloc(0));
    return changes.sort((a, b) => Buffer.compare(a.bytes, b.bytes)).map(({ change }) => change);
  } catch (error) {
    if (error instanceof Unreadable) return undefined;
    throw error;
  }
}

function typeOf(mode: string): string {
  return mode === LINK || mode === GITLINK ? mode : "file";
}

function readObject(read: Read, budget: Budget, hash: string, kind: StoreObject["kind"]): Buffer {
  if (--budget.reads < 0) throw new Unreadable();
  const object = read(hash);
  if (object?.kind !== kind) throw new Unreadable();
  budget.bytes -= object.body.length;
  if (budget.bytes < 0) throw new Unreadable();
  return object.body;
}

function treeOf(read: Read, budget: Budget, commit: string): string {
  const body = readObject(read, budget, commit, "commit");
  const tree = /^tree ([0-9a-f]{40})\n/.exec(body.subarray(0, 46).toString("latin1"));
  if (!tree) throw new Unreadable();
  return tree[1]!;
}

// A tree's entries by name: `<mode> <name>\0<20 bytes>` each.
function readTree(read: Read, budget: Budget, hash: string): Map<string, Entry & { name: Buffer }> {
  const body = readObject(read, budget, hash, "tree");
  const entries = parseTreeEntries(body);
  if (!entries || !entries.every((entry) => MODES.has(entry.mode))) throw new Unreadable();
  return new Map(entries.map((entry) => [entry.name.toString("latin1"), entry]));
}
