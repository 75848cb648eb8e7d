import { orgPaths } from "../../domain/paths.js";
import { describeReloadWarning } from "../../domain/reconcile/reload-record.js";
import { readServiceTicks } from "../../domain/views/service-ticks.js";
import { readSnapshot } from "../../domain/views/status-snapshot.js";
import { readUsageViews } from "../../domain/usage/summary.js";
import { readReloadRecord } from "../../flows/reload/reload-log.js";
import { readStopFile } from "../../adapters/store/stop-file.js";
import { readDiskView } from "../../adapters/store/disk-state.js";
import { formatStopLine } from "../../ui/stop-line.js";
import { createWorld } from "../../adapters/real-world.js";
import { readTextNow } from "../../adapters/fs/read-now.js";
import { readUtilizationInput } from "../../adapters/store/gpu-runs-file.js";
import { measureUtilization } from "../../domain/experiments/utilization.js";
import { renderStatus } from "../../ui/status-table.js";
import { formatKeeperLine } from "../../ui/keeper-line.js";
import { findRunningKeeper, readKeeperRecord } from "../../adapters/keeper-process.js";
import { readVerifierInput } from "../../adapters/store/verifier-state.js";
import { buildVerifierView } from "../../domain/views/verifier.js";
import { describeCrashedBaselines, formatVerifierLine } from "../../ui/verifier-line.js";
import { readJudgeSpendView } from "../../adapters/store/judge-spend-view.js";
import { describeJudgeSpend, explainJudgeSpend } from "../../ui/judge-spend.js";
import type { Io } from "../io.js";
import { formatJson } from "../../domain/safe-text.js";

/** `org status [--json]`: every agent with role, GPU, pid, state, restarts, uptime, branch head, tokens and dollars. */
export async function runStatus(opts: { root: string; json: boolean }, io: Io): Promise<number> {
  const real = createWorld();
  // Every file status reads is one org wrote in state/: read at once, not through the thread pool (read-now.ts).
  const world = { ...real, files: { ...real.files, readText: readTextNow } };
  const snapshot = await readSnapshot(world, opts.root);
  const paths = orgPaths(opts.root);
  const names = snapshot.agents.map((agent) => agent.name);
  const running = snapshot.running;
  // Every file below is read side by side: each is its own small read, none needs another's answer.
  const [reload, usage, input, read, keeperPid, keeper, disk, queue, judge] = await Promise.all([
    readReloadRecord(paths.state),
    // Each agent's tokens and dollars as the daemon last summed them (null: its program records none).
    readUsageViews(world.files, paths.state, names),
    // Busy GPU-seconds of verify runs over wall time × GPUs; none before the verifier first started.
    readUtilizationInput(paths.state, world.now()),
    readStopFile(paths.state),
    // Who brings the daemon back if it dies, and how often it had to: only while the org runs.
    running ? findRunningKeeper(opts.root, paths.state) : undefined,
    running ? readKeeperRecord(paths.state) : undefined,
    // The disk watch's last look: why verify runs wait, while a running daemon says so.
    running ? readDiskView(paths.state) : undefined,
    // What the verifier is doing: a queue of baselines and experiments is news while every agent reads `running`.
    readVerifierInput(opts.root, names),
    // The verifier's own spend: its judge's runs, apart from the agents' (none without a judge).
    readJudgeSpendView(opts.root),
  ]);
  const agents = snapshot.agents.map((agent) => ({ ...agent, usage: usage.get(agent.name) ?? null }));
  const utilization = input && measureUtilization(input);
  // The stop section as the daemon last decided it: the distance to each condition, or the stop with its figures.
  // Distances written by a daemon that is gone are stale; a stop stays true after `org down`.
  const stop = read?.kind === "running" && !running ? undefined : read;
  const verifier = queue && buildVerifierView(queue);
  if (!opts.json) {
    const warnings = [...describeReloadWarning(reload), ...(disk?.low ? [`verifier paused: ${disk.low}`] : [])];
    const crashed = verifier ? describeCrashedBaselines(verifier, opts.root) : [];
    const judged = judge ? [describeJudgeSpend(judge.spend), ...explainJudgeSpend(judge.spend, judge.maxCost)] : [];
    const verifierLines = [...(verifier ? [formatVerifierLine(verifier), ...crashed] : []), ...judged];
    const stopLine = formatStopLine(stop, opts.root);
    io.out(renderStatus(snapshot, warnings, usage, { utilization, stopLine, verifierLines, width: io.columns }));
    const line = formatKeeperLine(keeper, keeperPid !== undefined);
    if (line) io.out(line);
    return 0;
  }
  // Each daemon service's last tick and lag, as its last heartbeat wrote them: a stalled loop shows here.
  const daemon = {
    services: await readServiceTicks(world.files, paths.daemon),
    keeper: keeper ? { ...keeper, running: keeperPid !== undefined } : null,
  };
  const stopped = stop?.kind === "stop" && stop.phase === "stopped" ? stop.reason : null;
  io.out(formatJson({ ...snapshot, agents, reload: reload ?? null, daemon, utilization: utilization ?? null, stopped, stop: stop ?? null, disk: disk ?? null, verifier: verifier ?? null, judge: judge?.spend ?? null }));
  return 0;
}
