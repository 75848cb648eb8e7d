import { lstatSync, type Stats } from "node:fs";
import { lstat, opendir } from "node:fs/promises";
import { join } from "node:path";

/** Bytes a folder takes on disk, as `du -sx` counts them; `partial` when the walk stopped at its cap. */
export interface TreeSize {
  bytes: number;
  entries: number;
  partial: boolean;
}

const BATCH = 64;

/**
 * What a folder holds on disk: blocks allocated (a sparse file costs what it uses), each inode once (hard links),
 * never through a symbolic link nor onto another filesystem. At most `maxEntries` entries are looked at: a folder of
 * millions of files costs a bounded walk, and what it found so far is a floor of the truth.
 */
export async function measureTree(root: string, maxEntries: number): Promise<TreeSize> {
  const top = await lstat(root).catch(() => undefined);
  if (!top) return { bytes: 0, entries: 0, partial: false };
  const seen = new Set<number>();
  const total: TreeSize = { bytes: 0, entries: 0, partial: false };
  const count = (info: { ino: number; blocks: number; nlink: number }) => {
    if (info.nlink > 1 && seen.has(info.ino)) return;
    if (info.nlink > 1) seen.add(info.ino);
    total.bytes += info.blocks * 512;
  };
  count(top);
  const stack = top.isDirectory() ? [root] : [];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    const taken = await readNames(dir, maxEntries - total.entries);
    if (taken === "full") {
      total.partial = true;
      break;
    }
    total.entries += taken.length;
    // Plain lstat calls cost a third of promised ones; a batch of them holds the daemon's loop well
    // under a millisecond.
    for (let at = 0; at < taken.length; at += BATCH) {
      const infos = taken.slice(at, at + BATCH).map((name) => ({ name, info: lstatOrNone(join(dir, name)) }));
      await new Promise((resolve) => setImmediate(resolve));
      for (const found of infos) {
        if (!found.info || found.info.dev !== top.dev) continue;
        count(found.info);
        if (found.info.isDirectory()) stack.push(join(dir, found.name));
      }
    }
  }
  return total;
}

function lstatOrNone(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

// Read as a stream, never the whole listing: a folder of millions of names costs no more than the cap.
async function readNames(path: string, room: number): Promise<string[] | "full"> {
  const dir = await opendir(path).catch(() => undefined);
  if (!dir) return [];
  const names: string[] = [];
  try {
    for (let entry = await dir.read(); entry; entry = await dir.read()) {
      if (names.length >= room) return "full";
      names.push(entry.name);
    }
    return names;
  } catch {
    return names;
  } finally {
    await dir.close().catch(() => undefined);
  }
}
