import { describeReloadWarning } from "../../domain/reconcile/reload-record.js";
import { loadStatusView, type StatusView } from "../../flows/views/status-view.js";
import { formatStopLine } from "../../ui/stop-line.js";
import { renderStatus } from "../../ui/status-table.js";
import { formatKeeperLine } from "../../ui/keeper-line.js";
import { describeCrashedBaselines, formatVerifierLine } from "../../ui/verifier-line.js";
import { describeJudgeSpend, explainJudgeSpend } from "../../ui/judge-spend.js";
import type { Io } from "../io.js";
import { formatJson } from "../../domain/safe-text.js";

/** `org status [--json]`: every agent with role, GPU, pid, state, restarts, uptime, branch head, tokens and dollars. */
export async function runStatus(opts: { root: string; json: boolean }, io: Io): Promise<number> {
  const view = await loadStatusView(opts.root, { services: opts.json });
  io.out(opts.json ? formatStatusJson(view) : formatStatusText(view, opts.root, io.columns));
  const line = opts.json ? undefined : formatKeeperLine(view.keeper, view.keeperRunning);
  if (line) io.out(line);
  return 0;
}

function formatStatusText(view: StatusView, root: string, width: number | undefined): string {
  const { verifier, judge, disk } = view;
  const warnings = [...describeReloadWarning(view.reload), ...(disk?.low ? [`verifier paused: ${disk.low}`] : [])];
  const crashed = verifier ? describeCrashedBaselines(verifier, root) : [];
  const judged = judge ? [describeJudgeSpend(judge.spend), ...explainJudgeSpend(judge.spend, judge.maxCost)] : [];
  const verifierLines = [...(verifier ? [formatVerifierLine(verifier), ...crashed] : []), ...judged];
  const stopLine = formatStopLine(view.stop, root);
  const shown = { utilization: view.utilization, stopLine, verifierLines, width };
  return renderStatus(view.snapshot, warnings, view.usage, shown);
}

function formatStatusJson(view: StatusView): string {
  const { snapshot, keeper, stop } = view;
  const agents = snapshot.agents.map((agent) => ({ ...agent, usage: view.usage.get(agent.name) ?? null }));
  // Each daemon service's last tick and lag, as its last heartbeat wrote them: a stalled loop shows here.
  const daemon = { services: view.services, keeper: keeper ? { ...keeper, running: view.keeperRunning } : null };
  const stopped = stop?.kind === "stop" && stop.phase === "stopped" ? stop.reason : null;
  return formatJson({
    ...snapshot, agents, reload: view.reload ?? null, daemon, utilization: view.utilization ?? null, stopped,
    stop: stop ?? null, disk: view.disk ?? null, verifier: view.verifier ?? null, judge: view.judge?.spend ?? null,
  });
}
