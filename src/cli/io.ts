import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { orgPaths } from "../domain/paths.js";
import { cleanText } from "../domain/safe-text.js";
import { readColumns } from "./terminal-width.js";

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  /** The terminal's width the tables fit; none for a pipe or `--wide`: every row whole. */
  columns?: number;
}

export const stdio: Io = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  get columns() {
    return readColumns(process.env, process.stdout);
  },
};

/**
 * Every line a command prints, cleaned of escapes and control characters: agent text reaches a person's terminal
 * through tables, messages and error echoes alike, and records written by older builds may hold raw escapes.
 */
export function toSafeIo(io: Io): Io {
  return { out: (text) => io.out(cleanText(text)), err: (text) => io.err(cleanText(text)), columns: io.columns };
}

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
    if (existsSync(orgPaths(current).orgFile)) return current;
    if (!withConfig && existsSync(join(current, "org.yaml"))) withConfig = current;
    if (dirname(current) === current) return withConfig ?? process.cwd();
  }
}
