// A loose object's file is read by the admit up to the size its fstat gave. The agent may grow the file (sparse:
// no disk spent) between that fstat and the read; here the race is won every time, by growing it in the fstat.
import type * as Fs from "node:fs";
import { chmodSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test, vi } from "vitest";
import { buildLoosePack } from "../../../src/adapters/git/loose-pack.js";
import { createAdmittedRepo } from "../../helpers/verifier-store.js";
import { git, removeDir, writeFiles } from "../../helpers/temp-repo.js";

const GROWN = 256 * 1024 * 1024;
const race = vi.hoisted(() => ({ ino: -1, path: "", read: 0 }));
vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof Fs>();
  const fstatSync = ((fd: number) => {
    const info = fs.fstatSync(fd);
    if (info.ino === race.ino) fs.truncateSync(race.path, GROWN);
    return info;
  }) as typeof fs.fstatSync;
  const count = <T extends (...args: never[]) => unknown>(read: T, size: (out: ReturnType<T>) => number) =>
    ((...args: Parameters<T>) => {
      const out = read(...args) as ReturnType<T>;
      if (race.ino >= 0) race.read += size(out);
      return out;
    }) as unknown as T;
  return {
    ...fs, fstatSync,
    readFileSync: count(fs.readFileSync, (out) => out.length),
    readSync: count(fs.readSync, (out) => out),
  };
});

const dirs: string[] = [];
afterEach(() => {
  race.ino = -1;
  for (const dir of dirs.splice(0)) removeDir(dir);
});

test("a blob's file grown between the fstat and the read: only the size fstat gave is read", async () => {
  const { repo, store, base } = await createAdmittedRepo(dirs);
  writeFiles(repo, { "a.txt": "2\n" });
  git(repo, ["add", "-A"]);
  git(repo, ["commit", "-qm", "next"]);
  const head = git(repo, ["rev-parse", "HEAD"]).trim();
  const blob = git(repo, ["rev-parse", "HEAD:a.txt"]).trim();
  const file = join(repo, ".git", "objects", blob.slice(0, 2), blob.slice(2));
  // git writes objects read-only; the agent owns the file and may make it writable.
  chmodSync(file, 0o644);
  Object.assign(race, { ino: statSync(file).ino, path: file, read: 0 });
  const pack = await buildLoosePack({
    repo: join(repo, ".git", "objects"), store, wanted: [head], held: [base],
  });
  race.ino = -1;
  expect(race.read).toBeLessThan(1024 * 1024);
  // What it read is the object as it was at the fstat: the commit, its tree and the blob.
  expect(pack?.readUInt32BE(8)).toBe(3);
});
