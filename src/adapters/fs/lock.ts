import { randomBytes } from "node:crypto";
import { link, mkdir, rm, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { OrgError } from "../../domain/errors.js";
import { readText } from "./files.js";
import { isRunningProcess } from "../process.js";

const WAIT_MS = 5000;
// A writer holds the lock for milliseconds; one this old was left by a crash.
const STALE_MS = 30_000;

/**
 * Take the lock file at `path` now, once more after removing a stale one; false while a live `org up` or
 * `org reload` holds it.
 */
export async function tryLock(path: string): Promise<boolean> {
  // A lock left by a dead process is stale: its holder's pid is in it. A zombie holds nothing (no init reaps here).
  return take(path, async () => {
    const holder = Number((await readText(path).catch(() => undefined))?.trim());
    return !(Number.isInteger(holder) && holder > 0 && isRunningProcess(holder));
  });
}

/**
 * Run `change` holding the lock at `path`, waiting a few seconds (`waitMs`) for another writer; a lock older than any
 * write is taken over.
 */
export async function withLock<T>(path: string, change: () => Promise<T>, waitMs = WAIT_MS): Promise<T> {
  const deadline = Date.now() + waitMs;
  await mkdir(dirname(path), { recursive: true });
  // Holders may run on other hosts sharing the folder: only the lock's age, never its pid, tells a crash.
  const stale = async () => Date.now() - (await stat(path).then((info) => info.mtimeMs, () => Date.now())) > STALE_MS;
  while (!(await take(path, stale))) {
    if (Date.now() > deadline) throw new OrgError(
      `${path} is held by another writer — try again; if no org command is running, delete it`, "locked",
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  try {
    return await change();
  } finally {
    await rm(path, { recursive: true, force: true });
  }
}

async function take(path: string, isStale: () => Promise<boolean>): Promise<boolean> {
  for (let attempt = 0; attempt < 2; attempt++) {
    if (await create(path)) return true;
    if (!(await isStale())) return false;
    // recursive: an older org left its locks as folders.
    await rm(path, { recursive: true, force: true });
  }
  return false;
}

// The pid goes into a file of our own that is then linked into place: a lock never exists without its holder's pid.
async function create(path: string): Promise<boolean> {
  const own = `${path}.${process.pid}.${randomBytes(4).toString("hex")}`;
  await writeFile(own, `${process.pid}\n`);
  try {
    await link(own, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    await rm(own, { force: true });
  }
}
