import { OrgError } from "../../domain/errors.js";
import { prepareIdea } from "../../domain/claims/claim-edit.js";
import { changeClaimAs, type ClaimAction } from "../../flows/claim-idea.js";
import { describeBoardProblem, describeNear } from "../../ui/claims-format.js";
import type { Io } from "../io.js";

/**
 * `org claim "idea"` puts the caller's idea on state/claims.md; `--done <id>` / `--drop <id>` closes one
 * of its claims.
 */
export async function runClaim(
  opts: { root: string; text?: string; done?: string; drop?: string }, io: Io,
): Promise<number> {
  const action = readAction(opts);
  const outcome = await changeClaimAs(opts.root, action, new Date());
  for (const problem of outcome.problems) io.err(describeBoardProblem(problem));
  const { caller, claim } = outcome;
  if (action.kind === "close") {
    io.out(`closed claim #${claim.id} (${action.how}): ${claim.idea}`);
    return 0;
  }
  const timeout = typeof outcome.timeout === "number" ? `${outcome.timeout}s` : outcome.timeout;
  io.out(`claimed #${claim.id} for ${claim.agent}: ${claim.idea}`);
  // A person has no verdicts: only the timeout or they themselves close their claim.
  const closes = caller === "person" ? `after ${timeout}` : `with your next verdict or after ${timeout}`;
  io.out(`it closes ${closes}; moving on sooner: org claim --done ${claim.id} (or --drop ${claim.id})`);
  for (const near of outcome.near) io.err(describeNear(near));
  return 0;
}

function readAction(opts: { text?: string; done?: string; drop?: string }): ClaimAction {
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
