// Pages of a SQLite database as its last committed transaction left them: the file, overlaid with the WAL's frames.
// Read-only and lock-free: no SQLite in Node 20, and the writer (opencode) must never wait on us.
import { lstat } from "node:fs/promises";
import { dirname } from "node:path";
import { openUntrusted } from "../fs/untrusted.js";

export interface PageSource {
  pageSize: number;
  /** Bytes of a page that hold data (page size less the reserved tail). */
  usable: number;
  page(number: number): Promise<Buffer>;
  close(): Promise<void>;
}

/**
 * The database at `path` (with `path`-wal when there is one); throws on a file that is not SQLite. `top` is the agent's
 * config folder, which it writes: no link below it is followed.
 */
export async function openPages(path: string, top = dirname(path)): Promise<PageSource> {
  const wal = parseWal(await readWal(top, `${path}-wal`));
  const handle = await openUntrusted(top, path);
  try {
    const header = Buffer.alloc(100);
    const { bytesRead } = await handle.read(header, 0, 100, 0);
    // A database whose every page is still in the WAL may have an empty main file.
    const first = bytesRead === 100 ? header : wal.frames.get(1)?.subarray(0, 100);
    if (!first || first.toString("latin1", 0, 16) !== "SQLite format 3\0") throw new Error("not a SQLite database");
    const raw = first.readUInt16BE(16);
    const pageSize = raw === 1 ? 65536 : raw;
    const usable = pageSize - first[20]!;
    return {
      pageSize,
      usable,
      async page(number) {
        const framed = wal.frames.get(number);
        if (framed) return framed;
        const buffer = Buffer.alloc(pageSize);
        const read = await handle.read(buffer, 0, pageSize, (number - 1) * pageSize);
        if (read.bytesRead < pageSize || (wal.pages > 0 && number > wal.pages)) throw new Error(
          `page ${number} is past the database's end`,
        );
        return buffer;
      },
      close: () => handle.close(),
    };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Sizes and times of the database and its WAL: equal before and after a read means no writer moved under it. */
export async function stampOf(path: string): Promise<string> {
  // lstat: a link the agent put there is no database of its CLI's.
  const parts = await Promise.all(
    [path, `${path}-wal`].map((file) => lstat(file).then(
      (info) => `${info.size}:${info.mtimeMs}:${info.ino}`, () => "-",
    )),
  );
  return parts.join("|");
}

/**
 * The WAL's committed pages: frames whose salts match the header and whose running checksum holds, up to the last
 * commit frame. A frame being written, or left from before the WAL restarted, fails the checks and ends the log.
 */
function parseWal(data: Buffer): { frames: Map<number, Buffer>; pages: number } {
  const frames = new Map<number, Buffer>();
  if (data.length < 32) return { frames, pages: 0 };
  const magic = data.readUInt32BE(0);
  if (magic !== 0x377f0682 && magic !== 0x377f0683) return { frames, pages: 0 };
  const bigEndian = magic === 0x377f0683;
  const pageSize = data.readUInt32BE(8);
  let sum = checksum(data.subarray(0, 24), [0, 0], bigEndian);
  if (sum[0] !== data.readUInt32BE(24) || sum[1] !== data.readUInt32BE(28)) return { frames, pages: 0 };
  const salts = [data.readUInt32BE(16), data.readUInt32BE(20)];
  const pending = new Map<number, Buffer>();
  let pages = 0;
  for (let at = 32; at + 24 + pageSize <= data.length; at += 24 + pageSize) {
    if (data.readUInt32BE(at + 8) !== salts[0] || data.readUInt32BE(at + 12) !== salts[1]) break;
    sum = checksum(data.subarray(at, at + 8), sum, bigEndian);
    sum = checksum(data.subarray(at + 24, at + 24 + pageSize), sum, bigEndian);
    if (sum[0] !== data.readUInt32BE(at + 16) || sum[1] !== data.readUInt32BE(at + 20)) break;
    pending.set(data.readUInt32BE(at), data.subarray(at + 24, at + 24 + pageSize));
    const commit = data.readUInt32BE(at + 4);
    if (commit === 0) continue;
    for (const [page, content] of pending) frames.set(page, content);
    pending.clear();
    pages = commit;
  }
  return { frames, pages };
}

// SQLite's WAL checksum: pairs of 32-bit words, in the byte order the magic number names, summed modulo 2^32.
function checksum(data: Buffer, [start0, start1]: number[], bigEndian: boolean): [number, number] {
  let s0 = start0!;
  let s1 = start1!;
  for (let at = 0; at + 8 <= data.length; at += 8) {
    const x0 = bigEndian ? data.readUInt32BE(at) : data.readUInt32LE(at);
    const x1 = bigEndian ? data.readUInt32BE(at + 4) : data.readUInt32LE(at + 4);
    s0 = (s0 + x0 + s1) >>> 0;
    s1 = (s1 + x1 + s0) >>> 0;
  }
  return [s0, s1];
}

async function readWal(top: string, path: string): Promise<Buffer> {
  const handle = await openUntrusted(top, path).catch(() => undefined);
  if (!handle) return Buffer.alloc(0);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}
