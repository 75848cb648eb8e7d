import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
}

export const stdio: Io = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
};

/**
 * The org's folder: --dir, else $ORG_ROOT (agents), else the nearest folder up from cwd holding a running
 * org's state, else the nearest holding org.yaml. State wins: a repo that commits org.yaml has a copy in
 * every worktree, and the worktree is not the org.
 */
export function findOrgRoot(dir?: string): string {
  if (dir) return resolve(dir);
  if (process.env.ORG_ROOT) return process.env.ORG_ROOT;
  let withConfig: string | undefined;
  for (let current = process.cwd(); ; current = dirname(current)) {
    if (existsSync(join(current, "state", "org.json"))) return current;
    if (!withConfig && existsSync(join(current, "org.yaml"))) withConfig = current;
    if (dirname(current) === current) return withConfig ?? process.cwd();
  }
}
