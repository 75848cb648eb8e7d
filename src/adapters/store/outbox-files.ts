import { constants } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { basename } from "node:path";

// The shim opens its FIFOs just after it publishes a request: a writer that comes first waits this long for them.
const READER_WAIT_MS = 5000;
// The agent owns its outbox: nothing in it is opened through a link, blocks the daemon (a FIFO where a file should be,
// a terminal) or is read past its size.
const SAFE = constants.O_NOFOLLOW | constants.O_NOCTTY | constants.O_NONBLOCK;

/** A file of the outbox opened as `kind`, or an error saying what it is instead. */
export async function openOutboxFile(path: string, flags: number, kind: "file" | "fifo"): Promise<FileHandle> {
  const handle = await open(path, flags | SAFE).catch((error: NodeJS.ErrnoException) => {
    // The code stays: a FIFO's writer waits out ENXIO until the shim's reader is there.
    const name = basename(path);
    const what = error.code === "ELOOP" ? `${name} is a symbolic link` : `${name}: ${error.code ?? error.message}`;
    throw Object.assign(new Error(what), { code: error.code });
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
    for (let read = -1; read !== 0 && size <= limit; size += read) {
      read = (await handle.read(buffer, size, limit + 1 - size, null)).bytesRead;
    }
    if (size > limit) throw new Error(`${basename(path)} is over ${limit} bytes`);
    return buffer.subarray(0, size);
  } finally {
    await handle.close();
  }
}

type Outputs = [out: FileHandle, err: FileHandle, status: FileHandle];

/** A request's stdout, stderr and exit status, for its command or its refusal. */
export async function openOutputs(entry: { base: string; local: boolean }): Promise<Outputs> {
  const opened: FileHandle[] = [];
  try {
    for (const suffix of [".out", ".err"]) opened.push(await openOutput(`${entry.base}${suffix}`, entry.local));
    // Made here, never opened through a link: the shim reads it once its output ends, or (polled) once it appears.
    opened.push(await open(`${entry.base}.status${entry.local ? "" : ".tmp"}`, "wx"));
    return opened as Outputs;
  } catch (error) {
    await Promise.all(opened.map((handle) => handle.close()));
    throw error;
  }
}

// A FIFO opened without waiting: ENXIO until the shim's reader is there. Polled requests get plain files of our own.
async function openOutput(path: string, fifo: boolean): Promise<FileHandle> {
  if (!fifo) return open(path, "wx");
  for (const deadline = Date.now() + READER_WAIT_MS; ; ) {
    try {
      return await openOutboxFile(path, constants.O_WRONLY | constants.O_NONBLOCK, "fifo");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENXIO" || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }
}
