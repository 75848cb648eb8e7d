import { formatBoard, type BoardProblem, type Claim } from "../../domain/claims/board.js";
import { settleBoard } from "../../domain/claims/settle.js";
import { parseDuration, readClaimSettings } from "../../domain/config/index.js";
import { orgPaths } from "../../domain/paths.js";
import { addOutcome } from "../../adapters/fs/disk-space.js";
import { changeClaimBoard, hasClaimBoard } from "../../adapters/store/claim-board.js";
import { loadConfigOrThrow } from "../../adapters/store/run-config.js";

/** The claims of state/claims.md as of `now`, closures due written back first, and the board's broken lines. */
export async function settleClaims(root: string, now: Date): Promise<{ claims: Claim[]; problems: BoardProblem[] }> {
  const config = await loadConfigOrThrow(root);
  const paths = orgPaths(root);
  const timeout = parseDuration(readClaimSettings(config).timeout);
  if (!(await hasClaimBoard(paths.state))) return { claims: [], problems: [] };
  const settled = await changeClaimBoard(paths.state, (board, results) => {
    const read = settleBoard(board, results, timeout, now);
    return { text: read.closed.length > 0 ? formatBoard(read.lines) : undefined, value: read };
  }).catch((error: unknown) => addOutcome(error, "the claims that closed were not written to the board"));
  return { claims: settled.claims, problems: settled.problems };
}
