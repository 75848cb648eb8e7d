import { DashboardSource } from "../../domain/views/dashboard-source.js";
import type { RestartDecision } from "../../domain/views/dashboard-restart.js";
import { PTY_SOCKET_PREFIX } from "../../domain/paths.js";
import { readMetricSetting } from "../../adapters/store/config-file.js";
import { readRecord } from "../../adapters/store/org-record.js";
import { runInteractive } from "../../adapters/process.js";
import { PtyFeed } from "../../adapters/pty/feed.js";
import { PtyFocus } from "../../adapters/pty/focus.js";
import { createWorld } from "../../adapters/real-world.js";
import { readVerifierInput } from "../../adapters/store/verifier-state.js";
import type { Io } from "../io.js";

const REFRESH_MS = 250;

/**
 * `org watch`: the live dashboard; q stops nothing. Enter attaches to an agent's tmux pane (Ctrl-b d comes back),
 * or, in an org without tmux, focuses it inside the dashboard with keys passed through the pty host (Ctrl-] comes back).
 */
export async function runWatch(opts: { root: string }, io: Io): Promise<number> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    io.err("org watch needs a terminal — use org status");
    return 1;
  }
  const record = await readRecord(opts.root);
  const world = createWorld();
  const tmux = world.panes(record.socket, record.session);
  // Loading org.yaml and blessed are the slow part of starting: do both at once.
  const [metric, { runDashboard }] = await Promise.all([readMetricSetting(opts.root), import("../../ui/dashboard.js")]);
  const readVerifier = (agents: string[]) => readVerifierInput(opts.root, agents);
  const source = new DashboardSource(world, opts.root, { ...metric, readVerifier });
  // Without tmux there is nothing to attach to: the dashboard itself passes keys to the pty host.
  const pty = record.socket.startsWith(PTY_SOCKET_PREFIX) ? new PtyFeed(record.socket.slice(PTY_SOCKET_PREFIX.length)) : undefined;
  const restart = async (decision: Exclude<RestartDecision, { kind: "refuse" }>): Promise<string> => {
    if (decision.kind === "respawn") {
      await tmux.respawnPane(decision.paneId);
      return `respawned ${decision.agent}'s pane`;
    }
    try {
      process.kill(decision.pid, "SIGTERM");
      return `sent SIGTERM to ${decision.agent} (pid ${decision.pid}); its supervisor restarts it`;
    } catch (error) {
      return `${decision.agent} (pid ${decision.pid}) already exited: ${(error as NodeJS.ErrnoException).code ?? "gone"}`;
    }
  };
  const noColor = Boolean(process.env.NO_COLOR);
  let select: string | undefined;
  try {
    for (;;) {
      const focus = pty ? { focus: new PtyFocus(pty) } : {};
      const outcome = await runDashboard({ read: () => source.read(), restart, theme: { color: !noColor }, refreshMs: REFRESH_MS, select, ...focus });
      if (outcome.kind === "quit") return 0;
      select = outcome.agent.name;
      await tmux.selectPane(outcome.agent.paneId!);
      // Inside another tmux, attaching nests clients; tmux refuses unless TMUX is unset.
      await runInteractive(tmux.attachArgv(outcome.agent.paneId!), { TMUX: undefined });
    }
  } finally {
    // The standing tmux client (or pty socket) would keep this process alive.
    source.close();
    pty?.close();
  }
}
