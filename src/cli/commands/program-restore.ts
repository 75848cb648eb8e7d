import { OrgError } from "../../org/errors.js";
import { orgPaths } from "../../org/paths.js";
import { readOptionalRecord } from "../../adapters/store/org-record.js";
import { loadSavedProgram } from "../../adapters/store/program-load.js";
import { findSavedVersion, readSavedProgram } from "../../adapters/store/programs.js";
import { createWorld } from "../../adapters/world.js";
import { reloadOrg } from "../../daemon/reload/reload-org.js";
import type { Io } from "../io.js";
import { printOutcome } from "../shared.js";

// As `org reload`: the daemon applies saves within a second, so a turn at the lock comes soon.
const LOCK_WAIT_MS = 15_000;

/**
 * `org program restore <version>`: its org.yaml and prompts written back, checked first as a save is. A running org
 * applies it at once, under the lock, as `org reload` would; one that no longer validates changes nothing.
 */
export async function runProgramRestore(opts: { root: string; version: string }, io: Io): Promise<number> {
  const state = orgPaths(opts.root).state;
  const version = await findSavedVersion(state, opts.version);
  const copy = await readSavedProgram(state, version);
  if (!copy) throw new OrgError(`state/programs/${version}/meta.json cannot be read — pick another version (\`org history\`)`, "program-incomplete");
  const saved = await loadSavedProgram(opts.root, copy);
  if (!saved.ok) {
    for (const problem of saved.problems) io.err(problem);
    io.err(`program ${version} no longer validates: nothing was restored; org.yaml, the prompts and the running org are as they were`);
    return 1;
  }
  const world = createWorld();
  const record = await readOptionalRecord(opts.root);
  if (!record || !(await world.tmux(record.socket, record.session).isRunning())) {
    const prompts = await saved.write();
    io.out(`restored program ${version}: org.yaml and ${prompts.length} prompt${prompts.length === 1 ? "" : "s"} (${prompts.join(", ")})`);
    io.out("the org is not running: `org up` starts it with this program");
    return 0;
  }
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    const outcome = await reloadOrg(world, {
      root: opts.root, read: { loaded: saved.loaded }, by: `org program restore ${version}`, apply: true, readTemplate: saved.readPrompt,
      beforeApply: async () => void (await saved.write()),
    });
    if (outcome.kind !== "busy") {
      const code = printOutcome(outcome, io, true);
      if (code === 0) io.out(`restored program ${version}`);
      return code;
    }
    if (Date.now() > deadline) throw new OrgError(`${outcome.reason} — wait for it to finish, then run \`org program restore ${version}\` again`, "locked");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
