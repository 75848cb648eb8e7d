import { OrgError } from "../../domain/errors.js";
import { runChief, runHillclimb } from "../../roles/index.js";
import { chiefWorld } from "./chief-world.js";
import { defaultOrgArgv, defaultSubmitArgv, hillclimbWorld, orgWorld, seededRngFor } from "./hillclimb-world.js";

/** `org builtin <name>`: a runtime shipped with org, in the agent's environment; `log` gets each line it tells. */
export async function runBuiltinRuntime(name: string, log: (line: string) => void): Promise<void> {
  const env = process.env;
  if (name === "chief") {
    const file = env.ORG_CHIEF_FILE || "train.mjs";
    const end = await runChief({ cwd: process.cwd(), log, file }, chiefWorld(env, defaultOrgArgv()));
    if (end.kind === "failed") throw new OrgError(end.reason, "chief");
    return;
  }
  if (name !== "hillclimb") {
    throw new OrgError(`no built-in runtime "${name}" — the built-ins are: hillclimb, chief`, "builtin");
  }
  // The baseline tunes the role's first plain editable file (no glob), as the demo's train.mjs.
  const file = (env.ORG_EDITS ?? "").split(":").find((entry) => entry !== "" && !/[*?[\]{}]/.test(entry))
    ?? "train.mjs";
  const rng = seededRngFor(env);
  const run = { cwd: process.cwd(), submitArgv: defaultSubmitArgv(), log, file, ...(rng ? { rng } : {}) };
  const end = await runHillclimb(run, { ...hillclimbWorld(), ...orgWorld(env) });
  if (end.kind === "failed") throw new OrgError(end.reason, "hillclimb");
}
