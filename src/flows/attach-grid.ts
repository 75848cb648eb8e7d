import { OrgError } from "../domain/errors.js";
import { readRecord } from "../adapters/store/org-record.js";
import { runInteractive } from "../adapters/process.js";
import { createWorld } from "../adapters/real-world.js";

export type AttachOutcome = { kind: "attached"; code: number } | { kind: "not-a-terminal"; argv: string[] };

/**
 * `org attach [agent]`: select the agent's pane, then take over the grid; off a terminal, the command that would
 * attach, for the person to run from one.
 */
export async function attachGrid(opts: { root: string; agent?: string; terminal: boolean }): Promise<AttachOutcome> {
  const record = await readRecord(opts.root);
  const tmux = createWorld().panes(record.socket, record.session);
  if (!(await tmux.isRunning())) {
    throw new OrgError(`org ${record.name} is not running — start it with \`org up\``, "down");
  }
  let pane: string | undefined;
  if (opts.agent) {
    const agent = record.agents.find((candidate) => candidate.name === opts.agent);
    const names = record.agents.map((a) => a.name).join(", ");
    if (!agent) throw new OrgError(`no agent named "${opts.agent}" — agents: ${names}`, "unknown-agent");
    pane = agent.paneId;
    if (pane) await tmux.selectPane(pane);
  }
  const argv = tmux.attachArgv(pane);
  if (!opts.terminal) return { kind: "not-a-terminal", argv };
  // Inside another tmux, attaching nests clients; tmux refuses unless TMUX is unset.
  return { kind: "attached", code: await runInteractive(argv, { TMUX: undefined }) };
}
