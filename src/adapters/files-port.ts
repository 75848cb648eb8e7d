import { chmod, cp, lstat, mkdir, open, rm, symlink } from "node:fs/promises";
import { dirname } from "node:path";
import type { FilesPort } from "../org/ports.js";
import { appendLines, pathExists, PRIVATE_DIR, readText, writeFileAtomic } from "./files.js";
import { isAlive } from "./process.js";

/** The state folder and worktree files, through atomic writes and O_APPEND lines. */
export const filesPort: FilesPort = {
  exists: pathExists,
  readText,
  writeAtomic: writeFileAtomic,
  appendLines,
  async mkdir(path) {
    await mkdir(path, { recursive: true, mode: PRIVATE_DIR });
  },
  async share(source, target, mode) {
    if (!(await pathExists(source))) return "missing";
    // lstat: a dangling link still counts as present, so we never clobber a person's choice.
    if (await lstat(target).then(() => true, () => false)) return "exists";
    await mkdir(dirname(target), { recursive: true });
    if (mode === "link") await symlink(source, target);
    else await cp(source, target, { recursive: true, preserveTimestamps: true });
    return "created";
  },
  async removeFile(path) {
    await rm(path, { force: true });
  },
  async makeExecutable(path) {
    await chmod(path, 0o755);
  },
  async tryLock(path) {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const handle = await open(path, "wx");
        await handle.writeFile(`${process.pid}\n`);
        await handle.close();
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        const holder = Number((await readText(path))?.trim());
        // A lock left by a dead process is stale: take it over once.
        if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) return false;
        await rm(path, { force: true });
      }
    }
    return false;
  },
};
