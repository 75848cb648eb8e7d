import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export const PACKAGE_ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const ORG_BIN = `${PACKAGE_ROOT}bin/org.js`;
export const FIXTURES = `${PACKAGE_ROOT}test/fixtures`;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run the built CLI as a person would, without a terminal. */
export function runOrg(args: string[], options: { cwd: string; env?: Record<string, string> }): CliResult {
  const result = spawnSync(process.execPath, [ORG_BIN, ...args], {
    cwd: options.cwd,
    env: { ...process.env, TMUX: "", TMUX_PANE: "", ORG_ROOT: "", ...options.env },
    encoding: "utf8",
    timeout: 60_000,
    stdio: ["ignore", "pipe", "pipe"],
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}
