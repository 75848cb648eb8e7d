import { resolve } from "node:path";
import { OrgError } from "../../domain/errors.js";
import type { World } from "../../domain/world.js";
import { readAndLoadConfig } from "../../adapters/store/config-file.js";
import { createWorld } from "../../adapters/real-world.js";
import { reloadOrg, type ReloadInput, type ReloadOutcome } from "./reload-org.js";

// The daemon applies saves within a second; a command waits this long for its turn at the lock.
const LOCK_WAIT_MS = 15_000;

/** A reload's outcome once it had its turn at the lock. */
export type SettledOutcome = Exclude<ReloadOutcome, { kind: "busy" }>;

/**
 * Apply under state/up.lock now, retrying while another `org up` or reload holds it; `again` is the command a person
 * runs once the holder is done (`org reload`), said when the lock stays taken.
 */
export async function reloadWhenFree(
  world: World, input: Omit<ReloadInput, "apply">, again: string,
): Promise<SettledOutcome> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    const outcome = await reloadOrg(world, { ...input, apply: true });
    if (outcome.kind !== "busy") return outcome;
    if (Date.now() > deadline) {
      throw new OrgError(`${outcome.reason} — wait for it to finish, then run \`${again}\` again`, "locked");
    }
    await new Promise((done) => setTimeout(done, 200));
  }
}

/** `org plan`: what reloading org.yaml, or the draft `file` (relative to `cwd`), would do; nothing is written. */
export async function planReload(root: string, file: string | undefined, cwd: string): Promise<ReloadOutcome> {
  const read = await readAndLoadConfig({ cwd: root, file: file === undefined ? undefined : resolve(cwd, file) });
  return reloadOrg(createWorld(), { root, read, by: "org plan", apply: false });
}
