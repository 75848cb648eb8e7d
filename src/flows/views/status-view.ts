import { orgPaths } from "../../domain/paths.js";
import { readOrgRecord } from "../../domain/lifecycle/org-record-file.js";
import type { OrgSnapshot } from "../../domain/views/snapshot.js";
import { readServiceTicks, type ServiceTick } from "../../domain/views/service-ticks.js";
import { readSnapshot } from "../../domain/views/status-snapshot.js";
import { readUsageViews } from "../../domain/usage/summary.js";
import { measureUtilization } from "../../domain/experiments/utilization.js";
import { buildVerifierView } from "../../domain/views/verifier.js";
import { readReloadRecord } from "../reload/reload-log.js";
import { readStopFile } from "../../adapters/store/stop-file.js";
import { readDiskView } from "../../adapters/store/disk-state.js";
import { createStatusWorld } from "../../adapters/status-world.js";
import { readUtilizationInput } from "../../adapters/store/gpu-runs-file.js";
import { findRunningKeeper, readKeeperRecord } from "../../adapters/keeper-process.js";
import { readVerifierInput } from "../../adapters/store/verifier-state.js";
import { readJudgeSpendView } from "../../adapters/store/judge-spend-view.js";
import { recordPhase, tracePhase } from "../../adapters/trace.js";

type Settled<T extends (...args: never[]) => unknown> = Awaited<ReturnType<T>>;

/** Everything `org status` shows, read from state/, tmux and git: the command formats it and prints. */
export interface StatusView {
  snapshot: OrgSnapshot;
  reload: Settled<typeof readReloadRecord>;
  usage: Settled<typeof readUsageViews>;
  utilization: ReturnType<typeof measureUtilization> | undefined;
  /** The stop section as the daemon last decided it; distances a gone daemon wrote are left out. */
  stop: Settled<typeof readStopFile> | undefined;
  keeper: Settled<typeof readKeeperRecord> | undefined;
  keeperRunning: boolean;
  disk: Settled<typeof readDiskView> | undefined;
  verifier: ReturnType<typeof buildVerifierView> | undefined;
  judge: Settled<typeof readJudgeSpendView>;
  /** Each daemon service's last tick as its last heartbeat wrote them; read only for `--json`. */
  services?: ServiceTick[];
}

/** Reads what `org status` prints; `services` too when the caller prints them (`--json`). */
export async function loadStatusView(root: string, opts: { services: boolean }): Promise<StatusView> {
  // ORG_TRACE_TIMINGS: node's start and the bundle's load, then each phase of the reading.
  recordPhase("status", "start", performance.now());
  // Every file status reads is one org wrote in state/: read at once, not through the thread pool (read-now.ts).
  const world = createStatusWorld();
  const record = await readOrgRecord(world.files, root);
  const reading = tracePhase("status", "snapshot", () => readSnapshot(world, root, { record }));
  const paths = orgPaths(root);
  const names = record.agents.map((agent) => agent.name);
  // Every file below is read while tmux and git answer, each its own small read; what only a running org shows is
  // dropped below when tmux lists no pane.
  const files = tracePhase("status", "files", () => Promise.all([
    readReloadRecord(paths.state),
    // Each agent's tokens and dollars as the daemon last summed them (null: its program records none).
    readUsageViews(world.files, paths.state, names),
    // Busy GPU-seconds of verify runs over wall time × GPUs; none before the verifier first started.
    readUtilizationInput(paths.state, world.now()),
    readStopFile(paths.state),
    // Who brings the daemon back if it dies, and how often it had to: only while the org runs.
    findRunningKeeper(root, paths.state),
    readKeeperRecord(paths.state),
    // The disk watch's last look: why verify runs wait, while a running daemon says so.
    readDiskView(paths.state),
    // What the verifier is doing: a queue of baselines and experiments is news while every agent reads `running`.
    readVerifierInput(root, names),
    // The verifier's own spend: its judge's runs, apart from the agents' (none without a judge).
    readJudgeSpendView(root),
  ]));
  // Both awaited at once: a failure of either is the command's, never an unhandled rejection.
  const [snapshot, read] = await Promise.all([reading, files]);
  const [reload, usage, input, stopFile, keeperPid, keeper, disk, queue, judge] = read;
  const running = snapshot.running;
  // Distances written by a daemon that is gone are stale; a stop stays true after `org down`.
  const stop = stopFile?.kind === "running" && !running ? undefined : stopFile;
  const view: StatusView = {
    snapshot, reload, usage, utilization: input ? measureUtilization(input) : undefined, stop,
    keeper: running ? keeper : undefined, keeperRunning: running && keeperPid !== undefined,
    disk: running ? disk : undefined, verifier: queue ? buildVerifierView(queue) : undefined, judge,
  };
  if (opts.services) view.services = await readServiceTicks(world.files, paths.daemon);
  return view;
}
