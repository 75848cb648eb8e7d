import { runBuiltinRuntime } from "../../flows/builtin/run-builtin.js";
import type { Io } from "../io.js";

/** `org builtin <name>`: a runtime shipped with org, run by a supervisor like any agent program. */
export async function runBuiltin(opts: { name: string }, io: Io): Promise<number> {
  await runBuiltinRuntime(opts.name, io.out);
  return 0;
}
