import { formatBoard, type Claim } from "../../domain/claims/board.js";
import { settleBoard } from "../../domain/claims/settle.js";
import { parseDuration, readClaimSettings } from "../../domain/config/index.js";
import { orgPaths } from "../../domain/paths.js";
import { loadConfigOrThrow } from "../../adapters/store/run-config.js";
import { changeClaimBoard, hasClaimBoard } from "../../adapters/store/claim-board.js";
import { describeBoardProblem, renderClaims } from "../../ui/claims-format.js";
import { addOutcome } from "../../adapters/fs/disk-space.js";
import type { Io } from "../io.js";
import { formatJson } from "../../domain/safe-text.js";

/** `org claims [--all] [--json]`: the open claims of state/claims.md (closed ones too with --all); closures due are written back. */
export async function runClaims(opts: { root: string; all: boolean; json: boolean }, io: Io): Promise<number> {
  const config = await loadConfigOrThrow(opts.root);
  const paths = orgPaths(opts.root);
  const timeout = parseDuration(readClaimSettings(config).timeout);
  const now = new Date();
  const settled = (await hasClaimBoard(paths.state))
    ? await changeClaimBoard(paths.state, (board, results) => {
        const read = settleBoard(board, results, timeout, now);
        return { text: read.closed.length > 0 ? formatBoard(read.lines) : undefined, value: read };
      }).catch((error: unknown) => addOutcome(error, "the claims that closed were not written to the board"))
    : undefined;
  for (const problem of settled?.problems ?? []) io.err(describeBoardProblem(problem));
  const claims = settled?.claims ?? [];
  if (!opts.json) {
    io.out(renderClaims(claims, { all: opts.all, now }));
    return 0;
  }
  const shown = opts.all ? claims : claims.filter((claim) => !claim.closed);
  io.out(formatJson({ claims: shown.map(toJson) }));
  return 0;
}

function toJson(claim: Claim): object {
  return { id: claim.id, agent: claim.agent, time: claim.time, status: claim.closed ? "closed" : "open", closed: claim.closed ?? null, idea: claim.idea };
}
