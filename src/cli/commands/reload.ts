import { applyReload } from "../../flows/reload/apply-reload.js";
import type { Io } from "../io.js";
import { printOutcome } from "../shared.js";

/** `org reload`: apply org.yaml and the prompts to the running org now; run by a meta agent, propose its copy. */
export async function runReload(opts: { root: string }, io: Io): Promise<number> {
  const done = await applyReload(opts.root);
  if (done.kind === "reloaded") return printOutcome(done.outcome, io, true);
  const { reply } = done;
  const failed = reply.outcome === "rejected" || reply.outcome === "busy";
  for (const line of reply.lines) (failed ? io.err : io.out)(line);
  if (reply.outcome === "rejected") io.err("nothing changed: the org runs as before; this attempt is in log.md");
  return failed ? 1 : 0;
}
