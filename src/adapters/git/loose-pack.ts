import { createHash } from "node:crypto";
import { closeSync, constants, existsSync, fstatSync, openSync, readSync } from "node:fs";
import { promisify } from "node:util";
import { deflate, deflateSync, inflate, inflateSync } from "node:zlib";
import { parseTreeEntries, splitLooseObject } from "./object-format.js";
import { createStoreReader } from "./store-objects.js";

const inflateAsync = promisify(inflate);
const deflateAsync = promisify(deflate);

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } = constants;
const BY_FD = existsSync("/proc/self/fd");
const SHA1 = /^[0-9a-f]{40}$/;
const TYPE_CODES = { commit: 1, tree: 2, blob: 3 } as const;
type Kind = keyof typeof TYPE_CODES;
interface GitObject { kind: Kind; body: Buffer }
interface TreeEntry { mode: string; name: string; hash: string }
interface Budget { objects: number; bytes: number; treeBytes: number }

// Past these the pack is pack-objects' to make: it reads packs and deltas, and streams what it sends.
const MAX_COMMITS = 64;
const MAX_OBJECTS = 4096;
const MAX_BYTES = 32 * 1024 * 1024;
// All one admit reads (compressed and inflated, sent or only compared): a commit of many parents, each file a zlib bomb
// hard-linked from one, would otherwise inflate MAX_BYTES a parent on the daemon's thread.
const READ_BYTES = 2 * MAX_BYTES;
const READ_OBJECTS = 2 * MAX_OBJECTS;
// Tree bytes parsed into entries, all trees of one admit: a 32 MB tree (a million entries) held the daemon's thread a
// second, where git's pipe parses it in its own processes. An honest change's trees are a small part of this.
const TREE_BYTES = 4 * 1024 * 1024;
// Inflated and deflated on node's own thread up to this: the thread pool's round trip is dearer for a small object.
const SYNC_BYTES = 256 * 1024;
const TREE_MODE = "40000";
const GITLINK_MODE = "160000";
const BLOB_MODES = new Set(["100644", "100755", "120000", "100664"]);

/** Anything this reader does not take plainly: the caller leaves the whole admit to git. */
class NotPlain extends Error {}

/**
 * The pack `pack-objects --revs` would send for `wanted` beyond `held` (commits the store holds whole), made here from
 * loose objects: the wanted commits' own from `repo` (the shared store, its objects folder), the held commits' trees
 * from `store` first (the verifier's own repository: loose, or the base's pack). Each object read is hashed against
 * its name, the shared store's through no link, from a regular file; its tree entries are compared with its parents'
 * at the same path, and what a parent has is not sent. Undefined when anything is not that plain (packed in the
 * shared store, a root commit, a mode git would question, too big): git's pipe then does it all. The pack is only a
 * proposal: `unpack-objects --strict` in the store names every object by its content and checks each link, as it
 * does git's.
 */
export async function buildLoosePack(input: { repo: string; store: string; wanted: string[]; held: string[] })
  : Promise<Buffer | undefined> {
  const held = new Set(input.held);
  const read = new Map<string, Promise<GitObject>>();
  const budget: Budget = { objects: READ_OBJECTS, bytes: READ_BYTES, treeBytes: TREE_BYTES };
  const readObject = (hash: string, top: string) => {
    const key = `${top}\0${hash}`;
    let found = read.get(key);
    if (!found) read.set(key, (found = readLooseObject(top, hash, budget)));
    return found;
  };
  // A held commit's objects are in the store, loose or in the base's pack: read there, else from the shared store.
  const fromStore = createStoreReader(input.store);
  const readHeld = (hash: string): Promise<GitObject> => {
    const found = fromStore(hash);
    const plain = found && found.kind !== "tag" ? { kind: found.kind, body: found.body } : undefined;
    return plain ? Promise.resolve(plain) : readObject(hash, input.repo);
  };
  const sent = new Map<string, GitObject>();
  let bytes = 0;
  const send = (hash: string, object: GitObject) => {
    bytes += object.body.length;
    if (sent.size >= MAX_OBJECTS || bytes > MAX_BYTES) throw new NotPlain();
    sent.set(hash, object);
  };
  const treeOf = async (commit: string) =>
    parseCommit((await (held.has(commit) ? readHeld(commit) : readObject(commit, input.repo))).body).tree;

  const takeTree = async (hash: string, theirs: string[], fromHeld: boolean[]): Promise<void> => {
    if (theirs.includes(hash) || sent.has(hash)) return;
    const object = await readObject(hash, input.repo);
    if (object.kind !== "tree") throw new NotPlain();
    send(hash, object);
    // One read at a time: the budget is taken before each inflate, never by several at once.
    const others: Map<string, TreeEntry>[] = [];
    for (const [index, tree] of theirs.entries()) {
      const other = await (fromHeld[index] ? readHeld(tree) : readObject(tree, input.repo));
      if (other.kind !== "tree") throw new NotPlain();
      others.push(new Map(parseTree(other.body, budget).map((entry) => [entry.name, entry])));
    }
    for (const entry of parseTree(object.body, budget)) {
      if (entry.mode === GITLINK_MODE) continue;
      const same = others.map((other) => other.get(entry.name));
      if (entry.mode === TREE_MODE) {
        const subtrees = same.map((other, index) => (other?.mode === TREE_MODE ? index : -1)).filter((i) => i >= 0);
        await takeTree(entry.hash, subtrees.map((i) => same[i]!.hash), subtrees.map((i) => fromHeld[i]!));
      } else if (!same.some((other) => other?.hash === entry.hash) && !sent.has(entry.hash)) {
        const blob = await readObject(entry.hash, input.repo);
        if (blob.kind !== "blob") throw new NotPlain();
        send(entry.hash, blob);
      }
    }
  };

  try {
    const seen = new Set<string>();
    const queue = [...input.wanted];
    while (queue.length > 0) {
      const commit = queue.shift()!;
      if (held.has(commit) || seen.has(commit)) continue;
      seen.add(commit);
      if (seen.size > MAX_COMMITS) throw new NotPlain();
      const object = await readObject(commit, input.repo);
      if (object.kind !== "commit") throw new NotPlain();
      const { tree, parents } = parseCommit(object.body);
      // A root commit brings a whole history: the fetch negotiates that better.
      if (parents.length === 0) throw new NotPlain();
      send(commit, object);
      const theirs: string[] = [];
      for (const parent of parents) theirs.push(await treeOf(parent));
      await takeTree(tree, theirs, parents.map((parent) => held.has(parent)));
      queue.push(...parents);
    }
    return sent.size === 0 ? undefined : await encodePack([...sent.values()]);
  } catch (error) {
    if (error instanceof NotPlain || (error as NodeJS.ErrnoException).code !== undefined) return undefined;
    throw error;
  }
}

/**
 * The loose object `hash` under the objects folder `top`: its bytes hashed against its name, or NotPlain. Read with
 * no link followed (each step opened from the last one's fd, as openUntrusted does), a regular file only, and at
 * once: a small object costs a few system calls here, where each thread-pool round trip costs more than the read.
 */
async function readLooseObject(top: string, hash: string, budget: Budget): Promise<GitObject> {
  if (!SHA1.test(hash) || !BY_FD || --budget.objects < 0) throw new NotPlain();
  const compressed = readBelow(top, [hash.slice(0, 2), hash.slice(2)], Math.min(MAX_BYTES, budget.bytes));
  budget.bytes -= compressed.length;
  const limit = { maxOutputLength: Math.min(MAX_BYTES, budget.bytes) + 64 };
  let raw: Buffer;
  try {
    raw = compressed.length <= SYNC_BYTES ? inflateSync(compressed, limit) : await inflateAsync(compressed, limit);
  } catch {
    throw new NotPlain();
  }
  budget.bytes -= raw.length;
  if (budget.bytes < 0) throw new NotPlain();
  if (createHash("sha1").update(raw).digest("hex") !== hash) throw new NotPlain();
  const object = splitLooseObject(raw);
  if (!object || object.kind === "tag") throw new NotPlain();
  return { kind: object.kind, body: object.body };
}

/**
 * The regular file at `top`/`parts`, through no link and no FIFO, at most `most` bytes; NotPlain otherwise. Read up to
 * the size fstat gave, never to the end: a file the agent grows after the fstat is not read whole.
 */
function readBelow(top: string, parts: string[], most: number): Buffer {
  const fds: number[] = [];
  try {
    fds.push(openSync(top, O_RDONLY | O_DIRECTORY | O_NOFOLLOW));
    for (const [index, part] of parts.entries()) {
      const last = index === parts.length - 1;
      const flags = last ? O_RDONLY | O_NOFOLLOW | O_NONBLOCK : O_RDONLY | O_DIRECTORY | O_NOFOLLOW;
      fds.push(openSync(`/proc/self/fd/${fds.at(-1)!}/${part}`, flags));
    }
    const info = fstatSync(fds.at(-1)!);
    if (!info.isFile() || info.size > most) throw new NotPlain();
    const bytes = Buffer.allocUnsafe(info.size);
    let filled = 0;
    for (let got = -1; got !== 0 && filled < bytes.length; filled += got) {
      got = readSync(fds.at(-1)!, bytes, filled, bytes.length - filled, filled);
    }
    return bytes.subarray(0, filled);
  } catch {
    throw new NotPlain();
  } finally {
    for (const fd of fds) closeSync(fd);
  }
}

/** A commit's tree and parents, as git writes them: the header's first lines. */
function parseCommit(body: Buffer): { tree: string; parents: string[] } {
  const end = body.indexOf("\n\n");
  const lines = body.subarray(0, end < 0 ? body.length : end).toString("latin1").split("\n");
  const tree = /^tree ([0-9a-f]{40})$/.exec(lines[0] ?? "")?.[1];
  if (!tree) throw new NotPlain();
  const parents: string[] = [];
  for (const line of lines.slice(1)) {
    const parent = /^parent ([0-9a-f]{40})$/.exec(line)?.[1];
    if (!parent) break;
    parents.push(parent);
  }
  return { tree, parents };
}

/** A tree's entries: `<mode> <name>\0<20 bytes>` each; a mode git would not write plainly, or too many: NotPlain. */
function parseTree(body: Buffer, budget: Budget): TreeEntry[] {
  budget.treeBytes -= body.length;
  if (budget.treeBytes < 0) throw new NotPlain();
  const entries = parseTreeEntries(body);
  const plain = (mode: string) => mode === TREE_MODE || mode === GITLINK_MODE || BLOB_MODES.has(mode);
  if (!entries || !entries.every((entry) => plain(entry.mode))) throw new NotPlain();
  return entries.map((entry) => ({ ...entry, name: entry.name.toString("latin1") }));
}

/** A version 2 pack of `objects`, whole, each deflated without compression (the other side inflates it at once). */
async function encodePack(objects: GitObject[]): Promise<Buffer> {
  const head = Buffer.alloc(12);
  head.write("PACK", 0, "latin1");
  head.writeUInt32BE(2, 4);
  head.writeUInt32BE(objects.length, 8);
  const deflated = (body: Buffer) =>
    body.length <= SYNC_BYTES ? deflateSync(body, { level: 0 }) : deflateAsync(body, { level: 0 });
  const entries = await Promise.all(objects.map(async (object) => [
    entryHeader(TYPE_CODES[object.kind], object.body.length), await deflated(object.body),
  ]));
  const pack = Buffer.concat([head, ...entries.flat()]);
  return Buffer.concat([pack, createHash("sha1").update(pack).digest()]);
}

// The type in bits 4-6 of the first byte with the size's low 4 bits, then 7 bits a byte, the high bit saying more.
function entryHeader(type: number, size: number): Buffer {
  const bytes: number[] = [];
  let byte = (type << 4) | (size & 15);
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    bytes.push(byte | 0x80);
    byte = rest & 0x7f;
    rest = Math.floor(rest / 128);
  }
  bytes.push(byte);
  return Buffer.from(bytes);
}
