import { OrgError } from "../../domain/errors.js";
import { readRecord } from "../../adapters/store/org-record.js";
import { runInteractive } from "../../adapters/process.js";
import { createWorld } from "../../adapters/real-world.js";
import type { Io } from "../io.js";

/** `org attach [agent]`: take over the grid with that agent's pane selected. */
export async function runAttach(opts: { root: string; agent?: string }, io: Io): Promise<number> {
  const record = await readRecord(opts.root);
  const tmux = createWorld().panes(record.socket, record.session);
  if (!(await tmux.isRunning())) throw new OrgError(`org ${record.name} is not running — start it with \`org up\``, "down");
  let pane: string | undefined;
  if (opts.agent) {
    const agent = record.agents.find((candidate) => candidate.name === opts.agent);
    if (!agent) throw new OrgError(`no agent named "${opts.agent}" — agents: ${record.agents.map((a) => a.name).join(", ")}`, "unknown-agent");
    pane = agent.paneId;
    if (pane) await tmux.selectPane(pane);
  }
  const argv = tmux.attachArgv(pane);
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    io.err(`not a terminal; run this from one: ${argv.join(" ")}`);
    return 1;
  }
  // Inside another tmux, attaching nests clients; tmux refuses unless TMUX is unset.
  return runInteractive(argv, { TMUX: undefined });
}
