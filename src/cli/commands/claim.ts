import { OrgError } from "../../domain/errors.js";
import { formatBoard } from "../../domain/claims/board.js";
import { addClaim, closeClaim, prepareIdea } from "../../domain/claims/claim-edit.js";
import { settleBoard } from "../../domain/claims/settle.js";
import { findNearIdeas } from "../../domain/claims/similarity.js";
import { parseDuration, readClaimSettings } from "../../domain/config/index.js";
import { senderName } from "../../domain/messages/wiring.js";
import { listAgents } from "../../domain/lifecycle/plan-agents.js";
import { findCaller } from "../../adapters/identity/find-caller.js";
import { orgPaths } from "../../domain/paths.js";
import { loadConfigOrThrow } from "../../adapters/store/run-config.js";
import { changeClaimBoard } from "../../adapters/store/claim-board.js";
import { addOutcome } from "../../adapters/fs/disk-space.js";
import { describeBoardProblem, describeNear } from "../../ui/claims-format.js";
import type { Io } from "../io.js";

type Action = { kind: "add"; idea: string } | { kind: "close"; id: string; how: "done" | "dropped" };

/** `org claim "idea"` puts the caller's idea on state/claims.md; `--done <id>` / `--drop <id>` closes one of its claims. */
export async function runClaim(opts: { root: string; text?: string; done?: string; drop?: string }, io: Io): Promise<number> {
  const action = readAction(opts);
  const config = await loadConfigOrThrow(opts.root);
  const caller = senderName(await findCaller(opts.root, listAgents(config)));
  const settings = readClaimSettings(config);
  const now = new Date();
  const outcome = await changeClaimBoard(orgPaths(opts.root).state, (board, results) => {
    const settled = settleBoard(board, results, parseDuration(settings.timeout), now);
    const decision = action.kind === "add" ? addClaim(settled, caller, action.idea, now) : closeClaim(settled, caller, action.id, action.how, now);
    if (!decision.ok) throw new OrgError(`${decision.reason} (nothing was changed)`, "claim");
    // Near ideas are looked for before the claim joins the board, so it never finds itself.
    const near = action.kind === "add" ? findNearIdeas(action.idea, settled.claims.filter((claim) => !claim.closed), settled.tried, settings.similarity) : [];
    return { text: formatBoard(decision.lines), value: { claim: decision.claim, near, problems: settled.problems } };
  }).catch((error: unknown) => addOutcome(error, "the board was not changed"));
  for (const problem of outcome.problems) io.err(describeBoardProblem(problem));
  const { claim } = outcome;
  if (action.kind === "close") {
    io.out(`closed claim #${claim.id} (${action.how}): ${claim.idea}`);
    return 0;
  }
  const timeout = typeof settings.timeout === "number" ? `${settings.timeout}s` : settings.timeout;
  io.out(`claimed #${claim.id} for ${claim.agent}: ${claim.idea}`);
  // A person has no verdicts: only the timeout or they themselves close their claim.
  const closes = caller === "person" ? `after ${timeout}` : `with your next verdict or after ${timeout}`;
  io.out(`it closes ${closes}; moving on sooner: org claim --done ${claim.id} (or --drop ${claim.id})`);
  for (const near of outcome.near) io.err(describeNear(near));
  return 0;
}

function readAction(opts: { text?: string; done?: string; drop?: string }): Action {
  const closes = [opts.done, opts.drop].filter((id) => id !== undefined).length;
  if (closes > 1 || (closes === 1 && opts.text !== undefined)) {
    throw new OrgError('give one of: an idea, --done <id> or --drop <id> (nothing was changed)', "usage");
  }
  if (opts.done !== undefined) return { kind: "close", id: opts.done, how: "done" };
  if (opts.drop !== undefined) return { kind: "close", id: opts.drop, how: "dropped" };
  const idea = prepareIdea(opts.text);
  if (!idea.ok) throw new OrgError(`${idea.reason} (nothing was changed)`, "usage");
  return { kind: "add", idea: idea.idea };
}
