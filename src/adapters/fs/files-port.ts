import { chmod, cp, lstat, mkdir, rm, symlink } from "node:fs/promises";
import type { FilesPort } from "../../domain/ports.js";
import { tryLock } from "./lock.js";
import { appendLines, pathExists, PRIVATE_DIR, readText, writeFileAtomic } from "./files.js";
import { reclaimAgentDir } from "./agent-dir.js";
import { placeUntrusted, readUntrusted, writeUntrusted } from "./untrusted.js";

/** The state folder and worktree files, through atomic writes and O_APPEND lines. */
export const filesPort: FilesPort = {
  exists: pathExists,
  readText,
  writeAtomic: writeFileAtomic,
  appendLines,
  async mkdir(path) {
    await mkdir(path, { recursive: true, mode: PRIVATE_DIR });
  },
  async share(source, target, mode, within) {
    if (!(await pathExists(source))) return "missing";
    // lstat: a dangling link still counts as present, so we never clobber a person's choice.
    if (await lstat(target).then(() => true, () => false)) return "exists";
    // In the agent's worktree: made in a folder reached through no link the agent put there.
    const copy = (at: string) => cp(source, at, { recursive: true, preserveTimestamps: true });
    const make = (at: string) => (mode === "link" ? symlink(source, at) : copy(at));
    await placeUntrusted(within, target, make);
    return "created";
  },
  async removeFile(path) {
    await rm(path, { force: true });
  },
  async makeExecutable(path) {
    await chmod(path, 0o755);
  },
  tryLock,
  reclaimAgentDir,
  readUntrusted: (top, path) => readUntrusted(top, path),
  writeUntrusted,
};
