import { planReload } from "../../flows/reload/reload-now.js";
import { OrgError } from "../../domain/errors.js";
import { EXIT } from "../../domain/scripting/index.js";
import { formatJson } from "../../domain/safe-text.js";
import { describePlanJson } from "../../ui/plan-json.js";
import type { Io } from "../io.js";
import { printOutcome } from "../shared.js";

/** `org plan [--file draft.yaml] [--json]`: what reloading org.yaml (or a draft) would do; changes nothing. */
export async function runPlan(
  opts: { root: string; file?: string; cwd: string; json?: boolean },
  io: Io,
): Promise<number> {
  const outcome = await planReload(opts.root, opts.file, opts.cwd);
  if (!opts.json) return printOutcome(outcome, io, false);
  // A plan never takes the lock, so busy is not expected here; should it come, it is an error, not a plan.
  if (outcome.kind === "busy") {
    throw new OrgError(`${outcome.reason} — wait for it to finish, then run \`org plan\` again`, "locked");
  }
  io.out(formatJson(describePlanJson(outcome)));
  return outcome.kind === "rejected" ? EXIT.failure : EXIT.ok;
}
