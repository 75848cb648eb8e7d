import { constants, existsSync, type Dirent } from "node:fs";
import { lstat, mkdir, open, readdir, rename, rm, writeFile, type FileHandle } from "node:fs/promises";
import { basename, dirname, join, relative, sep } from "node:path";
import { PRIVATE_DIR } from "./files.js";

// Files an agent can write (its CLI home, progress, proposal copy, worktree) are read and written here only: no link
// is followed below `top`, only regular files are read, and writes are renames of files made in top's parent, which
// must be a folder no agent can write. Linux walks each step from the last one's open fd, so a folder swapped for a
// link mid-walk is refused too.
const { O_RDONLY, O_NOFOLLOW, O_DIRECTORY, O_NONBLOCK, O_WRONLY, O_APPEND, O_CREAT } = constants;
const BY_FD = existsSync("/proc/self/fd");
/** What readUntrusted reads at most: a progress file or a CLI's settings, never a disk's worth. */
export const UNTRUSTED_MAX_BYTES = 16 * 1024 * 1024;

let counter = 0;

/** Opens `path` (below the folder `top`) for reading: a regular file reached through no link, or an error why not. */
export async function openUntrusted(top: string, path: string): Promise<FileHandle> {
  const { parts, name } = splitBelow(top, path);
  return withFolder(top, parts, false, async (folder) => {
    const flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK;
    const handle = await open(join(folder, name), flags).catch((error: NodeJS.ErrnoException) => {
      throw explainRefusal(error, path);
    });
    const info = await handle.stat();
    if (info.isFile()) return handle;
    await handle.close();
    if (info.isDirectory()) throw untrustedError(`${path} is a directory`, "EISDIR");
    throw untrustedError(`${path} is not a regular file: not read`, "EINVAL");
  });
}

/** The text of `path` below `top` as openUntrusted finds it, undefined when absent; over `maxBytes` is an error. */
export async function readUntrusted(
  top: string, path: string, maxBytes = UNTRUSTED_MAX_BYTES,
): Promise<string | undefined> {
  const handle = await openUntrusted(top, path).catch(orAbsent);
  if (!handle) return undefined;
  try {
    const { size } = await handle.stat();
    const over = `${path} is ${size} bytes, over the ${maxBytes} org reads from an agent's folder: not read`;
    if (size > maxBytes) throw untrustedError(over, "EFBIG");
    return (await handle.readFile()).toString("utf8");
  } finally {
    await handle.close();
  }
}

/** The size of the regular file `path` below `top`, 0 when absent; a link or a special file is an error. */
export async function sizeUntrusted(top: string, path: string): Promise<number> {
  const handle = await openUntrusted(top, path).catch(orAbsent);
  if (!handle) return 0;
  try {
    return (await handle.stat()).size;
  } finally {
    await handle.close();
  }
}

/** Replaces `path` below `top` with `content`: made in top's parent, renamed into a folder reached through no link. */
export async function writeUntrusted(top: string, path: string, content: string): Promise<void> {
  const { parts, name } = splitBelow(top, path);
  const tmp = join(dirname(top), `.${basename(top)}.${process.pid}.${counter++}.tmp`);
  // A link at top itself is refused by the walk below, after this made nothing.
  await mkdir(top, { recursive: true, mode: PRIVATE_DIR });
  await writeFile(tmp, content, { flag: "wx", mode: 0o600 });
  try {
    await withFolder(top, parts, true, (folder) => rename(tmp, join(folder, name)));
  } catch (error) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw error;
  }
}

/** Appends whole `lines` to the file `path` below `top`: a regular file reached through no link, made when missing. */
export async function appendUntrusted(top: string, path: string, lines: string[]): Promise<void> {
  const { parts, name } = splitBelow(top, path);
  await mkdir(top, { recursive: true, mode: PRIVATE_DIR });
  await withFolder(top, parts, true, async (folder) => {
    const flags = O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK;
    const handle = await open(join(folder, name), flags, 0o600).catch((error: NodeJS.ErrnoException) => {
      throw explainRefusal(error, path);
    });
    try {
      // A fifo or a device opens too: only a regular file is written.
      if (!(await handle.stat()).isFile()) throw untrustedError(`${path} is not a regular file: not written`, "EINVAL");
      await handle.writeFile(lines.map((line) => `${line}\n`).join(""));
    } finally {
      await handle.close();
    }
  });
}

/** Every entry below the folder `dir` (`top` or below it), its path relative to `dir`; links listed, not entered. */
export async function listUntrusted(top: string, dir: string): Promise<{ path: string; entry: Dirent }[]> {
  const below = dir === top ? undefined : splitBelow(top, dir);
  return withFolder(top, below ? [...below.parts, below.name] : [], false, async (folder) => {
    const entries = await readdir(folder, { recursive: true, withFileTypes: true });
    // Node 20's recursive readdir names the entry's folder in parentPath (path before 20.12).
    const parentOf = (entry: Dirent) => (entry as { parentPath?: string }).parentPath ?? entry.path;
    return entries.map((entry) => ({ path: relative(folder, join(parentOf(entry), entry.name)), entry }));
  });
}

/** Makes `path` below `top` with `make` (a link, a copy), in a folder reached through no link: made when missing. */
export async function placeUntrusted(top: string, path: string, make: (at: string) => Promise<unknown>): Promise<void> {
  const { parts, name } = splitBelow(top, path);
  await withFolder(top, parts, true, (folder) => make(join(folder, name)));
}

/** The folder below `top` (made when `create`), walked without following links, handed to `use` as a path naming it. */
async function withFolder<T>(
  top: string, parts: string[], create: boolean, use: (folder: string) => Promise<T>,
): Promise<T> {
  if (!BY_FD) return use(await walkByLstat(top, parts, create));
  const fds: FileHandle[] = [];
  try {
    let at = top;
    fds.push(await openFolder(top, top));
    for (const part of parts) {
      const next = join(`/proc/self/fd/${fds.at(-1)!.fd}`, part);
      at = join(at, part);
      if (create) await mkdir(next, { mode: PRIVATE_DIR }).catch(orExisting);
      fds.push(await openFolder(next, at));
    }
    return await use(`/proc/self/fd/${fds.at(-1)!.fd}`);
  } finally {
    await Promise.all(fds.map((fd) => fd.close().catch(() => undefined)));
  }
}

async function openFolder(path: string, named: string): Promise<FileHandle> {
  return open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW).catch((error: NodeJS.ErrnoException) => {
    throw explainRefusal(error, named);
  });
}

// Without /proc (not Linux, where no sandbox runs either): each step looked at, a link refused.
async function walkByLstat(top: string, parts: string[], create: boolean): Promise<string> {
  let at = top;
  for (const step of ["", ...parts]) {
    at = join(at, step);
    const info = await lstat(at).catch((error: NodeJS.ErrnoException) => (create ? orAbsent(error) : raise(error)));
    if (!info) await mkdir(at, { mode: PRIVATE_DIR });
    else if (info.isSymbolicLink()) throw untrustedError(`${at} is a symbolic link: not followed`, "ELOOP");
    else if (!info.isDirectory()) throw untrustedError(`${at} is not a folder: not followed`, "ENOTDIR");
  }
  return at;
}

function splitBelow(top: string, path: string): { parts: string[]; name: string } {
  const rel = relative(top, path);
  const outside = rel === "" || rel.startsWith("..") || rel.startsWith(sep);
  if (outside) throw untrustedError(`${path} is not inside ${top}`, "EINVAL");
  const parts = rel.split(sep);
  return { parts: parts.slice(0, -1), name: parts.at(-1)! };
}

function explainRefusal(error: NodeJS.ErrnoException, path: string): Error {
  // O_NOFOLLOW on a link: ELOOP; O_DIRECTORY on a link or a file: ENOTDIR.
  if (error.code === "ELOOP") return untrustedError(`${path} is a symbolic link: not followed`, "ELOOP");
  const notFolder = `${path} is not a folder (a symbolic link or a file): not followed`;
  if (error.code === "ENOTDIR") return untrustedError(notFolder, "ENOTDIR");
  if (error.code === "ENXIO") return untrustedError(`${path} is not a regular file: not read`, "ENXIO");
  error.message = error.message.replace(/'\/proc\/self\/fd\/\d+[^']*'/, `'${path}'`);
  return error;
}

function orAbsent(error: NodeJS.ErrnoException): undefined {
  if (error.code === "ENOENT") return undefined;
  throw error;
}

function raise(error: Error): never {
  throw error;
}

function orExisting(error: NodeJS.ErrnoException): undefined {
  if (error.code === "EEXIST") return undefined;
  throw error;
}

function untrustedError(message: string, code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}
