import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export const PACKAGE_ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const ORG_BIN = `${PACKAGE_ROOT}bin/org.js`;
export const FIXTURES = `${PACKAGE_ROOT}test/fixtures`;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment of a CLI run that sees these GPUs: test/fixtures/gpu/nvidia-smi prints `rows`, its CSV lines. */
export function fakeGpuEnv(rows: readonly string[]): Record<string, string> {
  return { PATH: `${FIXTURES}/gpu:${process.env.PATH}`, FAKE_NVIDIA_SMI_CSV: rows.join("\n") };
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

/** runOrg without blocking the event loop: for tests that need several CLI processes live at once. */
export function runOrgAsync(
  args: string[],
  options: { cwd: string; env?: Record<string, string>; timeoutMs?: number },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ORG_BIN, ...args], {
      cwd: options.cwd,
      env: { ...process.env, TMUX: "", TMUX_PANE: "", ORG_ROOT: "", ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}
