import { OrgError } from "../../org/errors.js";
import { runHillclimb } from "../../adapters/hillclimb.js";
import type { Io } from "../io.js";

/** `org builtin <name>`: a runtime shipped with org, run by a supervisor like any agent program. */
export async function runBuiltin(opts: { name: string }, io: Io): Promise<number> {
  if (opts.name !== "hillclimb") throw new OrgError(`no built-in runtime "${opts.name}" — the built-ins are: hillclimb`, "builtin");
  // The baseline tunes the role's first plain editable file (no glob), as the demo's train.mjs.
  const file = (process.env.ORG_EDITS ?? "").split(":").find((entry) => entry !== "" && !/[*?[\]{}]/.test(entry)) ?? "train.mjs";
  await runHillclimb({ cwd: process.cwd(), log: io.out, file });
  return 0;
}
