import { resolve } from "node:path";
import { readAndLoadConfig } from "../../adapters/store/config-file.js";
import { reloadOrg } from "../../daemon/reload/reload-org.js";
import { createWorld } from "../../adapters/world.js";
import type { Io } from "../io.js";
import { printOutcome } from "../shared.js";

/** `org plan [--file draft.yaml]`: what reloading org.yaml (or a draft next to it) would do to the running org; changes nothing. */
export async function runPlan(opts: { root: string; file?: string; cwd: string }, io: Io): Promise<number> {
  const file = opts.file === undefined ? undefined : resolve(opts.cwd, opts.file);
  const read = await readAndLoadConfig({ cwd: opts.root, file });
  return printOutcome(await reloadOrg(createWorld(), { root: opts.root, read, by: "org plan", apply: false }), io, false);
}
