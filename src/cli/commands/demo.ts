import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { parse } from "yaml";
import { createDemoRepo } from "../../adapters/demo-repo.js";
import type { Io } from "../io.js";
import { runUp } from "./up.js";
import { readAndLoadConfig } from "./validate.js";

/** `org demo`: create the toy research repo org.yaml points at (first run only), then `org up`. */
export async function runDemo(opts: { root: string; attach: boolean }, io: Io): Promise<number> {
  const repo = await demoRepoPath(opts.root);
  const { created } = await createDemoRepo(repo);
  if (created) io.out(`created the demo research repo in ${repo} (train.mjs is mutable, prepare.mjs is protected)`);
  return runUp(opts, io);
}

// Read org.yaml's repo before validation: validation itself fails until the repo exists.
async function demoRepoPath(root: string): Promise<string> {
  const read = await readAndLoadConfig({ cwd: root });
  if ("loaded" in read) return read.loaded.repoDir;
  const raw = parse(await readFile(resolve(root, "org.yaml"), "utf8")) as { repo?: unknown } | null;
  return resolve(root, typeof raw?.repo === "string" ? raw.repo : ".demo/research");
}
