import { main } from "../../src/cli/main.js";
import type { CliResult } from "./org-cli.js";

/**
 * `org <args>` run by `main` in this process, in `cwd` with `env` set, as runOrg would run the built CLI: its exit
 * code and the lines it printed. A node start less per call, for tests of what a command says and writes, not of
 * its process; file arguments are resolved against this process's folder, so give them whole.
 */
export async function runOrgInProcess(
  args: string[], options: { cwd: string; env?: Record<string, string> },
): Promise<CliResult> {
  const env = options.env ?? {};
  const saved = Object.keys(env).map((name) => [name, process.env[name]] as const);
  Object.assign(process.env, env);
  let stdout = "";
  let stderr = "";
  const io = {
    out: (text: string) => void (stdout += `${text}\n`), err: (text: string) => void (stderr += `${text}\n`),
  };
  try {
    const code = await main(["-C", options.cwd, ...args], io);
    return { code, stdout, stderr };
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
