import type { OrgRecord } from "../domain/state.js";
import type { World } from "../domain/world.js";
import { RefStamp } from "../adapters/git/ref-stamp.js";

const HEADS_MS = 10_000;

/**
 * The org's branch heads for the status table, a little stale: read again only once the refs moved and HEADS_MS passed.
 */
export function cacheBranchHeads(
  world: World,
  record: OrgRecord,
): (current: OrgRecord) => Promise<Map<string, string>> {
  let heads: { at: number; map: Map<string, string> } | undefined;
  // A reload never changes the org's name or repo, so one stamp serves the daemon's life.
  const refStamp = new RefStamp(record.repo, `refs/heads/org/${record.name}`);
  let moved = false;
  return async (current) => {
    // A move seen between refreshes is remembered until the next one.
    moved = (await refStamp.mayHaveMoved()) || moved;
    if (!heads || (Date.now() - heads.at > HEADS_MS && moved)) {
      moved = false;
      heads = { at: Date.now(), map: await world.git.branchHeads(current.repo, `org/${current.name}/`) };
    }
    return heads.map;
  };
}
