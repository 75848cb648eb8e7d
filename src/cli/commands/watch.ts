import { openDashboardSession } from "../../flows/views/dashboard-session.js";
import type { Io } from "../io.js";

const REFRESH_MS = 250;

/**
 * `org watch`: the live dashboard; q stops nothing. Enter attaches to an agent's tmux pane (Ctrl-b d comes back),
 * or, in an org without tmux, focuses it inside the dashboard with keys passed through the pty host
 * (Ctrl-] comes back).
 */
export async function runWatch(opts: { root: string }, io: Io): Promise<number> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    io.err("org watch needs a terminal — use org status");
    return 1;
  }
  // Loading org.yaml and blessed are the slow part of starting: do both at once.
  const opening = openDashboardSession(opts.root);
  const [session, { runDashboard }] = await Promise.all([opening, import("../../ui/dashboard.js")]);
  const theme = { color: !process.env.NO_COLOR };
  let select: string | undefined;
  try {
    for (;;) {
      const { read, restart } = session;
      const outcome = await runDashboard({ read, restart, theme, refreshMs: REFRESH_MS, select, ...session.focus() });
      if (outcome.kind === "quit") return 0;
      select = outcome.agent.name;
      await session.attach(outcome.agent.paneId!);
    }
  } finally {
    session.close();
  }
}
