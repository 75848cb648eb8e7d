import { resolve } from "node:path";
import { readAndLoadConfig, readRepoSetting } from "../adapters/store/config-file.js";
import { createDemoRepo } from "../adapters/git/demo-repo.js";
import { readRecord } from "../adapters/store/org-record.js";

/** `org demo`'s first step: the toy research repo org.yaml points at, made on the first run only. */
export async function prepareDemoRepo(root: string): Promise<{ repo: string; created: boolean }> {
  const repo = await findDemoRepo(root);
  const { created } = await createDemoRepo(repo);
  return { repo, created };
}

/** Which grid the demo got once up: tmux, or node-pty when tmux is missing or --no-tmux. */
export async function readGridMode(root: string): Promise<"tmux" | "pty"> {
  return (await readRecord(root)).mode ?? "tmux";
}

// Read org.yaml's repo before validation: validation itself fails until the repo exists.
async function findDemoRepo(root: string): Promise<string> {
  const read = await readAndLoadConfig({ cwd: root });
  if ("loaded" in read) return read.loaded.repoDir;
  return resolve(root, (await readRepoSetting(root)) ?? ".demo/research");
}
