import { constants } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { basename } from "node:path";

// The agent owns its outbox: nothing in it is opened through a link, blocks the daemon (a FIFO where a file should be,
// a terminal) or is read past its size.
const SAFE = constants.O_NOFOLLOW | constants.O_NOCTTY | constants.O_NONBLOCK;

/** A file of the outbox opened as `kind`, or an error saying what it is instead. */
export async function openOutboxFile(path: string, flags: number, kind: "file" | "fifo"): Promise<FileHandle> {
  const handle = await open(path, flags | SAFE).catch((error: NodeJS.ErrnoException) => {
    // The code stays: a FIFO's writer waits out ENXIO until the shim's reader is there.
    throw Object.assign(new Error(error.code === "ELOOP" ? `${basename(path)} is a symbolic link` : `${basename(path)}: ${error.code ?? error.message}`), { code: error.code });
  });
  const info = await handle.stat();
  if (kind === "fifo" ? info.isFIFO() : info.isFile()) return handle;
  await handle.close();
  throw new Error(`${basename(path)} is not a ${kind === "fifo" ? "FIFO" : "regular file"}`);
}

/** A small regular file of the outbox, whole: refused when it holds more than `limit` bytes. */
export async function readOutboxFile(path: string, limit: number): Promise<Buffer> {
  const handle = await openOutboxFile(path, constants.O_RDONLY, "file");
  try {
    // One byte past the limit tells a file too large from one just at it, whatever it grew to since.
    const buffer = Buffer.alloc(limit + 1);
    let size = 0;
    for (let read = -1; read !== 0 && size <= limit; size += read) read = (await handle.read(buffer, size, limit + 1 - size, null)).bytesRead;
    if (size > limit) throw new Error(`${basename(path)} is over ${limit} bytes`);
    return buffer.subarray(0, size);
  } finally {
    await handle.close();
  }
}
