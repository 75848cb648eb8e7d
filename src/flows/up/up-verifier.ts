// What `org up` shows of the verifier: its line once the daemon's first look made the queue, and whether the org that
// `org up --wait` follows is still recorded.
import { orgPaths } from "../../domain/paths.js";
import { buildVerifierView, type VerifierView } from "../../domain/views/verifier.js";
import { readVerifierInput } from "../../adapters/store/verifier-state.js";
import { pathExists } from "../../adapters/fs/files.js";

/** The verifier's queue, runs and baselines of `agents`; undefined before any verifier started. */
export async function readUpVerifierView(
  root: string, agents: readonly string[], crashedSince?: number,
): Promise<VerifierView | undefined> {
  const input = await readVerifierInput(root, agents, crashedSince === undefined ? {} : { crashedSince });
  return input && buildVerifierView(input);
}

/** Whether org.json is there: `org down` removes it, and then nothing will judge the baselines any more. */
export async function isOrgRecorded(root: string): Promise<boolean> {
  return pathExists(orgPaths(root).orgFile);
}
