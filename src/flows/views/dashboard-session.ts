import { DashboardSource } from "../../domain/views/dashboard-source.js";
import type { RestartDecision } from "../../domain/views/dashboard-restart.js";
import { PTY_SOCKET_PREFIX } from "../../domain/paths.js";
import { readMetricSetting } from "../../adapters/store/config-file.js";
import { readRecord } from "../../adapters/store/org-record.js";
import { runInteractive, signalProcess } from "../../adapters/process.js";
import { PtyFeed } from "../../adapters/pty/feed.js";
import { PtyFocus } from "../../adapters/pty/focus.js";
import { createWorld } from "../../adapters/real-world.js";
import { readVerifierInput } from "../../adapters/store/verifier-state.js";

type Restart = Exclude<RestartDecision, { kind: "refuse" }>;

/**
 * What `org watch` runs the dashboard on: the model's source, a restart of an agent, an attach to its tmux pane, and
 * (in an org without tmux) a focus that passes keys through the pty host. `close` lets the process exit.
 */
export async function openDashboardSession(root: string) {
  const record = await readRecord(root);
  const world = createWorld();
  const tmux = world.panes(record.socket, record.session);
  const metric = await readMetricSetting(root);
  const readVerifier = (agents: string[]) => readVerifierInput(root, agents);
  const source = new DashboardSource(world, root, { ...metric, readVerifier });
  // Without tmux there is nothing to attach to: the dashboard itself passes keys to the pty host.
  const pty = record.socket.startsWith(PTY_SOCKET_PREFIX)
    ? new PtyFeed(record.socket.slice(PTY_SOCKET_PREFIX.length))
    : undefined;
  const restart = async (decision: Restart): Promise<string> => {
    if (decision.kind === "respawn") {
      await tmux.respawnPane(decision.paneId);
      return `respawned ${decision.agent}'s pane`;
    }
    const signal = signalProcess(decision.pid, "SIGTERM");
    if (signal.sent) return `sent SIGTERM to ${decision.agent} (pid ${decision.pid}); its supervisor restarts it`;
    return `${decision.agent} (pid ${decision.pid}) already exited: ${signal.code}`;
  };
  const attach = async (paneId: string): Promise<void> => {
    await tmux.selectPane(paneId);
    // Inside another tmux, attaching nests clients; tmux refuses unless TMUX is unset.
    await runInteractive(tmux.attachArgv(paneId), { TMUX: undefined });
  };
  return {
    read: () => source.read(),
    restart,
    attach,
    focus: () => (pty ? { focus: new PtyFocus(pty) } : {}),
    // The standing tmux client (or pty socket) would keep this process alive.
    close: () => {
      source.close();
      pty?.close();
    },
  };
}
