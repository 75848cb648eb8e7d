// Proof that a refused command wrote nothing: every path under a folder with its size and mtime, before and after.
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import type { CliResult } from "./org-cli.js";

/** Every path under dir with its size and mtime; {} when dir does not exist. */
export function snapshotDir(dir: string): Record<string, string> {
  if (!existsSync(dir)) return {};
  const entries: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const info = statSync(join(dir, name));
    entries[name] = `${info.size} ${info.mtimeMs}`;
  }
  return entries;
}

/**
 * The command failed with exactly this stderr (its newline added)
 * and exit status (2: a usage error), and dir is as it was.
 */
export function expectRefusedIn(
  dir: string,
  result: CliResult,
  stderr: string,
  before: Record<string, string>,
  code = 1,
): void {
  expect(result).toEqual({ code, stdout: "", stderr: `${stderr}\n` });
  expect(snapshotDir(dir)).toEqual(before);
}
