import { attachGrid } from "../../flows/attach-grid.js";
import type { Io } from "../io.js";

/** `org attach [agent]`: take over the grid with that agent's pane selected. */
export async function runAttach(opts: { root: string; agent?: string }, io: Io): Promise<number> {
  const terminal = Boolean(process.stdin.isTTY && process.stdout.isTTY);
  const outcome = await attachGrid({ ...opts, terminal });
  if (outcome.kind === "attached") return outcome.code;
  io.err(`not a terminal; run this from one: ${outcome.argv.join(" ")}`);
  return 1;
}
