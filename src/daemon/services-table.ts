import type { OrgPaths } from "../domain/paths.js";
import type { OrgSnapshot } from "../domain/views/snapshot.js";
import type { OrgRecord } from "../domain/state.js";
import { ChildRecords } from "../adapters/child-records.js";
import type { ReadConfigResult } from "../adapters/store/config-file.js";
import { createConfigReader } from "../adapters/store/run-config.js";
import { createWorld } from "../adapters/real-world.js";
import { shareConfigReads } from "./config-cache.js";
import type { Feed } from "./control-feed.js";
import { DiskWatch } from "./disk-watch.js";
import { QUIET_DISK_LOOK_MS } from "../domain/sandbox/disk-cadence.js";
import { defineHeartbeat } from "./heartbeat.js";
import { defineKeeperWatch } from "./keeper-watch.js";
import { defineLoop } from "./loop-service.js";
import { defineOutboxBroker } from "./outbox-broker.js";
import { Notifier } from "./notifier.js";
import { HotReload } from "./reload/hot-reload.js";
import type { Service } from "./services.js";
import { STANDUP_TICK_MS, StandupScheduler } from "./standup-scheduler.js";
import { createStopControl } from "./stop-agents.js";
import { STOP_TICK_MS, StopWatch } from "./stop-watch.js";
import { defineStatusScreen } from "./status-screen.js";
import { defineSupervision } from "./supervision.js";
import { USAGE_EVERY_MS, UsagePoller } from "./usage-poller.js";
import { defineVerifier } from "./verifier/service.js";

// Hot reload's look for meta requests a watch event missed: the watch on reload-requests/ serves each one at once.
const REFRESH_MS = 10_000;

/** The daemon's table of services, in start order: each one's timers and watchers are its own, stopped in reverse. */
export function buildServices(opts: {
  root: string;
  paths: OrgPaths;
  record: OrgRecord;
  feed: Feed;
  renderStatus: (snapshot: OrgSnapshot) => string;
}): Service[] {
  const { root, paths, record, feed } = opts;
  const say = feed.say;
  const world = createWorld();
  const tmux = world.panes(record.socket, record.session);
  const children = new ChildRecords(paths.children);
  // The daemon's one reader of org.yaml (both programs during an A/B run): loaded again only when it changes, and
  // looked at no more than every few seconds between the reloads hot reload's watch makes.
  const reader = createConfigReader(root, paths.state);
  const config = shareConfigReads(reader);
  // Hot reload loads anew each time: prompts, base and the disk can change where org.yaml's text does not.
  const reloadConfig = () => config.reload();
  const readConfig = () => config.read();
  // The verifier reads only when a reload changed org.json or reload.json, and must then see that reload's text.
  const readCurrentConfig = () => reader.read();
  // org.yaml as the daemon started: read once, by the first service that needs it, after the supervisor's first look.
  let first: Promise<ReadConfigResult> | undefined;
  const firstRead = () => (first ??= reloadConfig());
  const { supervisor, screens } = defineSupervision({ state: paths.state, tmux, children, say });
  // What each agent writes, and the free space verify runs keep: the verifier asks it before every run.
  const disk = new DiskWatch({ root, readConfig, tmux, processes: world.processes, say });
  const verifier = defineVerifier({
    paths, record, children, gpus: world.gpus, readConfig: readCurrentConfig, firstRead, say,
    holdRuns: () => disk.holdRuns(),
  });
  // The other services judge by the verify section the verifier was handed, never by a later edit of org.yaml's.
  const readJudgedConfig = async (): Promise<ReadConfigResult> => {
    const read = await readConfig();
    if (!("loaded" in read)) return read;
    const verify = verifier.judgedVerify(read.loaded.config.verify);
    return { loaded: { ...read.loaded, config: { ...read.loaded.config, verify } } };
  };
  let notifier: { stop(): Promise<void> } | undefined;
  const hotReload = new HotReload({ root, world, readConfig: reloadConfig, say });
  const standups = new StandupScheduler({ root, readConfig: readJudgedConfig, say });
  // Token usage from what each agent CLI records: usage.json per agent, which `org status` shows as it is.
  const tokens = new UsagePoller({ root, readConfig, say });
  // org.yaml's stop section: when a condition is met, the agents
  // are told, stopped after a grace, and the report written.
  const control = createStopControl({ root, world, tmux });
  const stops = new StopWatch({ root, readConfig: readJudgedConfig, control, say });
  const services: Service[] = [
    // First: a daemon that dies while the rest still start is brought back by the keeper it started.
    defineKeeperWatch({ root, state: paths.state, orgArgv: world.orgArgv, say }),
    supervisor,
    // Sandboxed agents' org commands run here from their first moments: before the verifier's slower start.
    defineOutboxBroker({ root, paths, orgArgv: world.orgArgv, children, say }),
    screens,
    verifier.service,
    {
      name: "notifier",
      start: async () => {
        const read = await firstRead();
        notifier = await Notifier.start({
          record,
          config: "loaded" in read ? read.loaded.config : undefined,
          say,
          io: tmux.openNoticePort(),
        });
      },
      stop: async () => notifier?.stop(),
    },
    defineLoop({
      name: "hot-reload",
      periodMs: REFRESH_MS,
      open: async () => hotReload.start(await firstRead()),
      tick: async () => hotReload.tick(),
      close: () => hotReload.stop(),
    }),
    defineLoop({ name: "standups", periodMs: STANDUP_TICK_MS, tick: (now) => standups.tick(now) }),
    defineLoop({ name: "usage", periodMs: USAGE_EVERY_MS, tick: (now) => tokens.tick(now) }),
    defineLoop({ name: "stop", periodMs: STOP_TICK_MS, tick: (now) => stops.tick(now) }),
    defineLoop({
      name: "disk",
      // Its lag is counted against the longest wait: a tick later than that is late.
      periodMs: QUIET_DISK_LOOK_MS,
      pause: () => new Promise((resolve) => setTimeout(resolve, disk.nextTickMs()).unref()),
      tick: (now) => disk.tick(now),
      fail: (error) => say(`disk: ${error.message}`),
    }),
    defineStatusScreen({ root, world, tmux, record, feed, renderStatus: opts.renderStatus }),
  ];
  services.push(
    defineHeartbeat({ file: paths.daemon, queuePerAgent: verifier.queuePerAgent, services: () => services, say }),
  );
  return services;
}
