import { OrgError } from "../domain/errors.js";
import { formatBoard } from "../domain/claims/board.js";
import { addClaim, closeClaim } from "../domain/claims/claim-edit.js";
import { settleBoard } from "../domain/claims/settle.js";
import { findNearIdeas } from "../domain/claims/similarity.js";
import { parseDuration, readClaimSettings } from "../domain/config/index.js";
import { senderName } from "../domain/messages/wiring.js";
import { listAgents } from "../domain/lifecycle/plan-agents.js";
import { orgPaths } from "../domain/paths.js";
import { findCaller } from "../adapters/identity/find-caller.js";
import { loadConfigOrThrow } from "../adapters/store/run-config.js";
import { changeClaimBoard } from "../adapters/store/claim-board.js";
import { addOutcome } from "../adapters/fs/disk-space.js";

export type ClaimAction = { kind: "add"; idea: string } | { kind: "close"; id: string; how: "done" | "dropped" };

/**
 * `org claim`: the caller's idea onto state/claims.md, or one of its claims closed, in one locked change of the board
 * (settled first: verdicts and the timeout close claims). Refused: nothing was changed, and the error says why.
 */
export async function changeClaimAs(root: string, action: ClaimAction, now: Date) {
  const config = await loadConfigOrThrow(root);
  const caller = senderName(await findCaller(root, listAgents(config)));
  const settings = readClaimSettings(config);
  const outcome = await changeClaimBoard(orgPaths(root).state, (board, results) => {
    const settled = settleBoard(board, results, parseDuration(settings.timeout), now);
    const decision = action.kind === "add"
      ? addClaim(settled, caller, action.idea, now)
      : closeClaim(settled, caller, action.id, action.how, now);
    if (!decision.ok) throw new OrgError(`${decision.reason} (nothing was changed)`, "claim");
    // Near ideas are looked for before the claim joins the board, so it never finds itself.
    const open = settled.claims.filter((claim) => !claim.closed);
    const near = action.kind === "add" ? findNearIdeas(action.idea, open, settled.tried, settings.similarity) : [];
    return { text: formatBoard(decision.lines), value: { claim: decision.claim, near, problems: settled.problems } };
  }).catch((error: unknown) => addOutcome(error, "the board was not changed"));
  return { ...outcome, caller, timeout: settings.timeout };
}
