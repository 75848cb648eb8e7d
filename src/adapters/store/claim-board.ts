import { join } from "node:path";
import { withLock } from "../fs/lock.js";
import { pathExists, readText, writeFileAtomic } from "../fs/files.js";
import { readResultsText } from "./results-file.js";

/** The claims board, state/claims.md, and the lock its writers take. */
function claimsPaths(state: string): { board: string; lock: string } {
  return { board: join(state, "claims.md"), lock: join(state, "claims.lock") };
}

/** Whether anyone ever claimed anything: `org claims` on an org without a board writes nothing, not even a lock. */
export async function hasClaimBoard(state: string): Promise<boolean> {
  return pathExists(claimsPaths(state).board);
}

/**
 * Read the board and results.tsv under the board's lock and write back the text `change` returns, if any:
 * two agents claiming at once each see the other's line. A `change` that throws writes nothing.
 */
export async function changeClaimBoard<T>(
  state: string,
  change: (board: string | undefined, results: string | undefined) => { text?: string; value: T },
): Promise<T> {
  const files = claimsPaths(state);
  return withLock(files.lock, async () => {
    const next = change(await readText(files.board), await readResultsText(state));
    if (next.text !== undefined) await writeFileAtomic(files.board, next.text);
    return next.value;
  });
}
