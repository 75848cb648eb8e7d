// What one admit's node pack may cost the daemon: an agent's commit of many parents, each parent's loose file a zlib
// bomb (hard links to one file: no disk spent), must not make the daemon's own thread inflate each of them.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { linkSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type * as Zlib from "node:zlib";
import { deflateSync } from "node:zlib";
import { afterEach, expect, test, vi } from "vitest";
import { buildLoosePack } from "../../../src/adapters/git/loose-pack.js";
import { admitCommits } from "../../../src/adapters/git/verifier-store.js";
import { createAdmittedRepo } from "../../helpers/verifier-store.js";
import { git, removeDir } from "../../helpers/temp-repo.js";

// Every byte node inflates, counted: the cost is the bytes, which no clock need measure.
const inflated = vi.hoisted(() => ({ bytes: 0 }));
vi.mock("node:zlib", async (importOriginal) => {
  const zlib = await importOriginal<typeof Zlib>();
  const inflateSync = (buffer: Buffer, options?: Zlib.ZlibOptions) => {
    const out = zlib.inflateSync(buffer, options);
    inflated.bytes += out.length;
    return out;
  };
  const inflate = (buffer: Buffer, options: Zlib.ZlibOptions, done: (error: Error | null, out?: Buffer) => void) =>
    zlib.inflate(buffer, options, (error, out) => {
      inflated.bytes += out?.length ?? 0;
      done(error, out);
    });
  return { ...zlib, inflateSync, inflate };
});

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

const BOMB_BYTES = 4 * 1024 * 1024;

test("63 parents, each a zlib bomb: one is inflated, not each, and the admit still refuses the commit", async () => {
  const { repo, store, base } = await createAdmittedRepo(dirs);
  const objects = join(repo, ".git", "objects");
  const bomb = join(objects, "bomb");
  const header = Buffer.from(`commit ${BOMB_BYTES}\0`);
  writeFileSync(bomb, deflateSync(Buffer.concat([header, Buffer.alloc(BOMB_BYTES)]), { level: 9 }));
  const parents = [base];
  for (let index = 0; index < 63; index++) {
    const hash = createHash("sha1").update(`parent ${index}`).digest("hex");
    mkdirSync(join(objects, hash.slice(0, 2)), { recursive: true });
    linkSync(bomb, join(objects, hash.slice(0, 2), hash.slice(2)));
    parents.push(hash);
  }
  const tree = git(repo, ["rev-parse", "HEAD^{tree}"]).trim();
  const person = "a <a@example.com> 0 +0000";
  const lines = [`tree ${tree}`, ...parents.map((parent) => `parent ${parent}`), `author ${person}`];
  const body = `${lines.join("\n")}\ncommitter ${person}\n\nmany parents\n`;
  const commit = execFileSync("git", ["hash-object", "-w", "-t", "commit", "--stdin"], {
    cwd: repo, input: body, encoding: "utf8",
  }).trim();
  inflated.bytes = 0;
  const pack = await buildLoosePack({
    repo: objects, store, wanted: [commit], held: [base],
  });
  expect(pack).toBeUndefined();
  expect(inflated.bytes).toBeLessThan(2 * BOMB_BYTES);
  expect(await admitCommits(store, repo, [commit, base])).toMatch(/could not be taken into the verifier's own object/);
});

test("a tree of 150,000 entries is git's to parse, in its own process: the admit takes it, by git's pipe", async () => {
  const { repo, store, base } = await createAdmittedRepo(dirs);
  const blob = Buffer.from(git(repo, ["rev-parse", "HEAD:a.txt"]).trim(), "hex");
  const names = Array.from({ length: 150_000 }, (_, index) => `f${String(index).padStart(6, "0")}`);
  const body = Buffer.concat(names.flatMap((name) => [Buffer.from(`100644 ${name}\0`), blob]));
  const hashObject = (type: string, input: Buffer | string) =>
    execFileSync("git", ["hash-object", "-w", "-t", type, "--stdin"], { cwd: repo, input, encoding: "utf8" }).trim();
  const tree = hashObject("tree", body);
  const person = "a <a@example.com> 0 +0000";
  const commit = hashObject("commit", `tree ${tree}\nparent ${base}\nauthor ${person}\ncommitter ${person}\n\nwide\n`);
  const objects = join(repo, ".git", "objects");
  expect(await buildLoosePack({ repo: objects, store, wanted: [commit], held: [base] }))
    .toBeUndefined();
  expect(await admitCommits(store, repo, [commit, base])).toBeUndefined();
  expect(git(store, ["rev-parse", `${commit}^{tree}`]).trim()).toBe(tree);
});
