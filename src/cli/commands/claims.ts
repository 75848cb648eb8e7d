import type { Claim } from "../../domain/claims/board.js";
import { settleClaims } from "../../flows/views/claims-view.js";
import { describeBoardProblem, renderClaims } from "../../ui/claims-format.js";
import type { Io } from "../io.js";
import { formatJson } from "../../domain/safe-text.js";

/**
 * `org claims [--all] [--json]`: the open claims of state/claims.md (closed ones too with --all); closures due
 * are written back.
 */
export async function runClaims(opts: { root: string; all: boolean; json: boolean }, io: Io): Promise<number> {
  const now = new Date();
  const { claims, problems } = await settleClaims(opts.root, now);
  for (const problem of problems) io.err(describeBoardProblem(problem));
  if (!opts.json) {
    io.out(renderClaims(claims, { all: opts.all, now }));
    return 0;
  }
  const shown = opts.all ? claims : claims.filter((claim) => !claim.closed);
  io.out(formatJson({ claims: shown.map(toJson) }));
  return 0;
}

function toJson(claim: Claim): object {
  return {
    id: claim.id, agent: claim.agent, time: claim.time, status: claim.closed ? "closed" : "open",
    closed: claim.closed ?? null, idea: claim.idea,
  };
}
