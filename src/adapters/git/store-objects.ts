import { createHash } from "node:crypto";
import { closeSync, fstatSync, openSync, readFileSync, readSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { inflateSync } from "node:zlib";
import { splitLooseObject, type ObjectKind } from "./object-format.js";

export interface StoreObject { kind: ObjectKind; body: Buffer }

const SHA1 = /^[0-9a-f]{40}$/;
const KINDS: Record<number, ObjectKind> = { 1: "commit", 2: "tree", 3: "blob", 4: "tag" };
const OFS_DELTA = 6;
const REF_DELTA = 7;
// Past this an object (or a delta chain) is git's to read: the reads here are for trees and links, on the main thread.
const MAX_BYTES = 4 * 1024 * 1024;
const MAX_CHAIN = 64;

interface PackIndex { idx: Buffer; pack: string; count: number }
// A pack of the store never changes once written (gc is off there): its index is read once, by size and mtime.
const indexes = new Map<string, PackIndex & { stamp: string }>();

/**
 * Objects of the verifier's own store (org's, never an agent's), read by node: loose, or from its packs (the base,
 * fetched at `org up`). Each is hashed against its name once whole. Undefined for anything not plainly there (missing,
 * too big, a form not read here): the caller asks git then.
 */
export function createStoreReader(store: string): (hash: string) => StoreObject | undefined {
  const objects = join(store, "objects");
  let packs: PackIndex[] | undefined;
  const fromPacks = (hash: string): StoreObject | undefined => {
    packs ??= listPacks(join(objects, "pack"));
    for (const pack of packs) {
      const offset = findOffset(pack, hash);
      if (offset === undefined) continue;
      const found = readPacked(pack, offset, (base) => read(base), 0);
      return found && checked(hash, found);
    }
    return undefined;
  };
  const read = (hash: string): StoreObject | undefined => {
    if (!SHA1.test(hash)) return undefined;
    try {
      return readLoose(join(objects, hash.slice(0, 2), hash.slice(2)), hash) ?? fromPacks(hash);
    } catch {
      return undefined;
    }
  };
  return read;
}

function readLoose(file: string, hash: string): StoreObject | undefined {
  let compressed: Buffer;
  try {
    compressed = readFileSync(file);
  } catch {
    return undefined;
  }
  const raw = inflateSync(compressed, { maxOutputLength: MAX_BYTES + 64 });
  const object = splitLooseObject(raw);
  return object && checked(hash, object);
}

function checked(hash: string, object: StoreObject): StoreObject | undefined {
  const digest = createHash("sha1").update(`${object.kind} ${object.body.length}\0`).update(object.body).digest("hex");
  return digest === hash ? object : undefined;
}

function listPacks(dir: string): PackIndex[] {
  const names = readdirSync(dir).filter((name) => name.endsWith(".idx"));
  return names.flatMap((name) => {
    const path = join(dir, name);
    const info = statSync(path);
    const stamp = `${info.size} ${info.mtimeMs}`;
    const known = indexes.get(path);
    if (known?.stamp === stamp) return [known];
    const idx = readFileSync(path);
    // Version 2 only ("\377tOc", 2): what git has written since 1.5.2.
    if (idx.readUInt32BE(0) !== 0xff744f63 || idx.readUInt32BE(4) !== 2) return [];
    const entry = { idx, pack: path.replace(/\.idx$/, ".pack"), count: idx.readUInt32BE(8 + 255 * 4), stamp };
    indexes.set(path, entry);
    return [entry];
  });
}

// The idx's fanout narrows the search to names with the same first byte, then a binary search of the sorted names.
function findOffset({ idx, count }: PackIndex, hash: string): number | undefined {
  const name = Buffer.from(hash, "hex");
  const first = name[0]!;
  let low = first === 0 ? 0 : idx.readUInt32BE(8 + (first - 1) * 4);
  let high = idx.readUInt32BE(8 + first * 4);
  const names = 8 + 256 * 4;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const order = idx.compare(name, 0, 20, names + middle * 20, names + middle * 20 + 20);
    if (order === 0) {
      const offsets = names + count * 24;
      const small = idx.readUInt32BE(offsets + middle * 4);
      if ((small & 0x80000000) === 0) return small;
      return Number(idx.readBigUInt64BE(offsets + count * 4 + (small & 0x7fffffff) * 8));
    }
    if (order < 0) low = middle + 1;
    else high = middle;
  }
  return undefined;
}

function readPacked(
  pack: PackIndex, offset: number, byName: (hash: string) => StoreObject | undefined, depth: number,
): StoreObject | undefined {
  if (depth > MAX_CHAIN) return undefined;
  const fd = openSync(pack.pack, "r");
  try {
    const total = fstatSync(fd).size;
    const head = Buffer.alloc(Math.min(32, total - offset));
    readSync(fd, head, 0, head.length, offset);
    let at = 0;
    let byte = head[at++]!;
    const type = (byte >> 4) & 7;
    let size = byte & 15;
    for (let shift = 4; byte & 0x80; shift += 7) {
      byte = head[at++]!;
      size += (byte & 0x7f) * 2 ** shift;
    }
    if (size > MAX_BYTES) return undefined;
    let base: StoreObject | undefined;
    if (type === OFS_DELTA) {
      byte = head[at++]!;
      let back = byte & 0x7f;
      while (byte & 0x80) {
        byte = head[at++]!;
        back = (back + 1) * 128 + (byte & 0x7f);
      }
      base = readPacked(pack, offset - back, byName, depth + 1);
    } else if (type === REF_DELTA) {
      base = byName(head.subarray(at, at + 20).toString("hex"));
      at += 20;
    } else if (!KINDS[type]) {
      return undefined;
    }
    // zlib's worst case is a few bytes a block over the input: read that much, inflate what the stream holds.
    const length = Math.min(total - offset - at, size + Math.ceil(size / 1000) + 64);
    const compressed = Buffer.alloc(length);
    readSync(fd, compressed, 0, length, offset + at);
    const data = inflateSync(compressed, { maxOutputLength: MAX_BYTES });
    if (data.length !== size) return undefined;
    if (type !== OFS_DELTA && type !== REF_DELTA) return { kind: KINDS[type]!, body: data };
    const body = base && applyDelta(base.body, data);
    return base && body ? { kind: base.kind, body } : undefined;
  } finally {
    closeSync(fd);
  }
}

/** git's delta: the base's and the result's sizes, then copies from the base and inserted bytes. */
function applyDelta(base: Buffer, delta: Buffer): Buffer | undefined {
  let at = 0;
  const size = () => {
    let value = 0;
    let byte: number;
    let shift = 0;
    do {
      byte = delta[at++]!;
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return value;
  };
  if (size() !== base.length) return undefined;
  // The result's size is the delta's word alone: a few bytes of copies of one base may name 512 MB.
  const resultSize = size();
  if (resultSize > MAX_BYTES) return undefined;
  const out = Buffer.alloc(resultSize);
  let written = 0;
  while (at < delta.length) {
    const op = delta[at++]!;
    if (op & 0x80) {
      let from = 0;
      let length = 0;
      for (let bit = 0; bit < 4; bit++) if (op & (1 << bit)) from += delta[at++]! * 2 ** (8 * bit);
      for (let bit = 0; bit < 3; bit++) if (op & (0x10 << bit)) length += delta[at++]! * 2 ** (8 * bit);
      if (length === 0) length = 0x10000;
      if (from + length > base.length || written + length > out.length) return undefined;
      base.copy(out, written, from, from + length);
      written += length;
    } else if (op > 0) {
      if (written + op > out.length || at + op > delta.length) return undefined;
      delta.copy(out, written, at, at + op);
      at += op;
      written += op;
    } else {
      return undefined;
    }
  }
  return written === out.length ? out : undefined;
}
