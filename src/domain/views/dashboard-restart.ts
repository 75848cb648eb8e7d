import type { AgentView } from "./snapshot.js";

export type RestartDecision =
  | { kind: "signal"; agent: string; pid: number; reason: string }
  | { kind: "respawn"; agent: string; paneId: string; reason: string }
  | { kind: "refuse"; agent: string; reason: string };

/**
 * How the dashboard's `r` restarts an agent. A running program gets SIGTERM and the daemon's supervisor
 * restarts it by the agent's restart policy, counters and backoff included. An agent the supervisor gave up
 * on (failed), that finished (stopped) or that waits for a person (blocked) has a dead pane, which is
 * respawned: its program starts again with a fresh restart budget.
 */
export function decideRestart(
  agent: Pick<AgentView, "name" | "state" | "pid" | "reason"> & { paneId: string | null }, running: boolean,
): RestartDecision {
  const name = agent.name;
  if (!running) return { kind: "refuse", agent: name, reason: `the org is down — start it with \`org up\`` };
  if (agent.state === "running" && agent.pid !== null) {
    return {
      kind: "signal",
      agent: name,
      pid: agent.pid,
      reason: `SIGTERM to ${name}'s program (pid ${agent.pid}); its supervisor restarts it by its restart policy`,
    };
  }
  if ((agent.state === "failed" || agent.state === "stopped" || agent.state === "blocked") && agent.paneId !== null
      && agent.reason !== "its pane is gone") {
    return {
      kind: "respawn",
      agent: name,
      paneId: agent.paneId,
      reason: `respawn ${name}'s pane: its program starts again with a fresh restart budget `
        + `(${agent.state}: ${agent.reason})`,
    };
  }
  return {
    kind: "refuse",
    agent: name,
    reason: `${name} is ${agent.state} (${agent.reason}) — wait for it to settle, then press r again`,
  };
}
