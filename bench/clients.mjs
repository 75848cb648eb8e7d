// Launch to first model request per real CLI, with and without org: bench/clients.ts run through tsx.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "./lib.mjs";

export function benchClients() {
  const result = spawnSync(process.execPath, ["--import", "tsx", join(ROOT, "bench", "clients.ts")], {
    cwd: ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    timeout: 1_800_000,
  });
  if (result.status !== 0) throw new Error(`bench/clients.ts failed (${result.status})`);
  return JSON.parse(result.stdout.trim().split("\n").at(-1));
}
