import { watch } from "node:fs";
import { access, mkdir, open, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { convertNoSpace } from "./disk-space.js";

let counter = 0;

// Folders we create (state and everything in it) are ours alone, whatever the umask: no one else may plant a message,
// a lock or a verdict.
export const PRIVATE_DIR = 0o700;

/** Write a file so readers see the old or the new content, never a part: tmp file then rename. */
export async function writeFileAtomic(path: string, content: string): Promise<void> {
  // A full disk is named to the user (where, how much is free, what to do), never shown as a bare ENOSPC.
  await writeInPlace(path, content).catch(async (error: unknown) => {
    throw await convertNoSpace(error, path);
  });
}

async function writeInPlace(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: PRIVATE_DIR });
  const tmp = `${path}.${process.pid}.${counter++}.tmp`;
  try {
    await writeFile(tmp, content);
    await rename(tmp, path);
  } catch (error) {
    // A full disk leaves a partial tmp file: remove it, or every failed write would take more of the space.
    await rm(tmp, { force: true }).catch(() => undefined);
    throw error;
  }
}

export async function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** Parsed JSON, or undefined when the file does not exist: unknown, for the record's owner to check. */
export async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, "utf8")) as unknown;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Append whole lines in one write(2) with O_APPEND, so concurrent appenders never interleave a line. */
export async function appendLines(path: string, lines: string[]): Promise<void> {
  if (lines.length === 0) return;
  await appendInPlace(path, lines).catch(async (error: unknown) => {
    throw await convertNoSpace(error, path);
  });
}

async function appendInPlace(path: string, lines: string[]): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: PRIVATE_DIR });
  const data = Buffer.from(lines.map((line) => `${line}\n`).join(""));
  const file = await open(path, "a");
  try {
    const { size } = await file.stat();
    let written = 0;
    try {
      while (written < data.length) written += (await file.write(data, written)).bytesWritten;
    } catch (error) {
      // A full disk can take part of a line: cut it off, so the file still ends in a whole line and the next
      // append starts clean.
      if (written > 0) await file.truncate(size).catch(() => undefined);
      throw error;
    }
  } finally {
    await file.close();
  }
}

export async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

// In place, not atomic: a file an agent edits keeps its inode and mode, as an editor's save does.
export async function writeText(path: string, text: string): Promise<void> {
  await writeFile(path, text);
}

/**
 * Call `onChange` on any change inside `dir` (not recursive), with the name changed when the kernel says;
 * returns the closer.
 */
export function watchDir(dir: string, onChange: (name: string | undefined) => void): () => void {
  const watcher = watch(dir, { persistent: false }, (_, name) => onChange(name ?? undefined));
  watcher.on("error", () => undefined);
  return () => watcher.close();
}

export async function pathExists(path: string): Promise<boolean> {
  return access(path).then(() => true, () => false);
}
