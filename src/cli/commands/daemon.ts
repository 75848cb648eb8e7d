import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { OrgError } from "../../org/errors.js";
import { orgPaths } from "../../org/paths.js";
import type { OrgRecord } from "../../org/state.js";
import { readSnapshot } from "../../org/status.js";
import { readJson, watchDir, writeJsonAtomic } from "../../adapters/files.js";
import { readAndLoadConfig } from "../../adapters/config-file.js";
import { cacheConfigRead } from "../../adapters/config-cache.js";
import { ChildRecords, endLeftChildren } from "../../adapters/child-records.js";
import { Notifier } from "../../adapters/notifier.js";
import { PaneSupervisor } from "../../adapters/pane-supervisor.js";
import { ScreenWatch } from "../../adapters/screen-watch.js";
import { HotReload } from "../../adapters/reload-daemon.js";
import { StandupScheduler } from "../../adapters/standup-scheduler.js";
import { VerifierHandle } from "../../adapters/reload-verifier.js";
import { createVerifierPort } from "../../adapters/verifier-port.js";
import { VerifierLoop } from "../../adapters/verifier-loop.js";
import { createWorld } from "../../adapters/world.js";
import { cachedReadText } from "../../adapters/read-cache.js";
import { RefStamp } from "../../adapters/ref-stamp.js";
import { usage } from "../../adapters/usage-counters.js";
import { UsagePoller } from "../../adapters/usage-poller.js";
import { renderStatus } from "../../ui/status-table.js";

const REFRESH_MS = 2000;
const REDRAW_MS = 10_000;
// With no one attached the table is only for the log and the next person: it is read and drawn this seldom.
const UNWATCHED_REFRESH_MS = 10_000;
// While a restart is pending, how soon it is made: one tmux command per look, over a standing client.
const SUPERVISE_MS = 500;
// With every agent settled, tmux hooks wake the supervisor on an exit; this look only catches what no hook reports.
const SETTLED_SUPERVISE_MS = 5000;
const SCREEN_MS = 3000;
const HEADS_MS = 10_000;
const FEED_LINES = 12;

/** The control pane: heartbeat, the verifier, and the org's status table with the latest verdicts. */
export async function runDaemon(opts: { root: string }): Promise<number> {
  const world = createWorld();
  const paths = orgPaths(opts.root);
  let record = await readJson<OrgRecord>(paths.orgFile);
  // Our pane starts before `org up` writes org.json (the grid comes first); with 32 panes that takes seconds.
  for (let waited = 0; !record && waited < 30_000; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    record = await readJson<OrgRecord>(paths.orgFile);
  }
  if (!record) {
    process.stderr.write(`[org] no ${paths.orgFile}; run \`org up\`\n`);
    return 1;
  }
  // Before any run starts: a slot or GPU must never hold a run of ours next to one a killed daemon left.
  await endLeftChildren(paths, "the daemon");
  const children = new ChildRecords(paths.children);
  const feed: string[] = [];
  // Counts lines said, so a new one is drawn at the next refresh even while no one watches.
  let said = 0;
  const say = (line: string) => {
    said++;
    feed.push(`${new Date().toLocaleTimeString()} ${line}`);
    feed.splice(0, Math.max(0, feed.length - FEED_LINES));
  };
  // First, before loading the verifier: agents whose program already exited wait on us.
  // Without tmux the panes live in `org pty-host`: the same supervision, screen watch and feed over its socket.
  const tmux = world.tmux(record.socket, record.session);
  const screenPort = tmux.openScreenPort();
  const screens = new ScreenWatch(paths.state, screenPort);
  const supervisor = new PaneSupervisor(paths.state, tmux.openPaneHost(children), say, (pane) => screens.whyBlocked(pane));
  const look = () => supervisor.tick().catch((error: Error) => (say(`supervisor: ${error.message}`), false));
  let settled = await look();
  let supervising = true;
  const supervision = (async () => {
    while (supervising) {
      await supervisor.pause(settled, SUPERVISE_MS, SETTLED_SUPERVISE_MS);
      if (supervising) settled = await look();
    }
  })();
  // Screens change slowly next to exits (a nudge waits minutes): a look every few seconds is enough.
  const watching = setInterval(() => void supervisor.watchScreens((panes) => screens.tick(panes)).catch((error: Error) => say(`screens: ${error.message}`)), SCREEN_MS);
  const readConfig = () => readAndLoadConfig({ cwd: opts.root });
  const read = await readConfig();
  // A reload that changes the agents hands the verifier a new org: the handle swaps loops between runs.
  const verifier = new VerifierHandle(paths, (next, config) => new VerifierLoop(next, config, createVerifierPort({ repo: next.repo, state: paths.state, messages: config.messages, backend: config.backend, children }), say), readConfig, say);
  await verifier.begin(record, "loaded" in read ? read.loaded.config : undefined);
  if ("problems" in read) say(`org.yaml has problems; the verifier is off until they are fixed:\n${read.problems.join("\n")}`);
  else if (!verifier.active) say("no verify section in org.yaml: experiments are not judged");

  let stopping = false;
  // A wake-up that arrives mid-tick is remembered, so the next sleep is skipped rather than the event lost.
  let woken = false;
  let resolveSleep: () => void = () => {};
  const wake = () => {
    woken = true;
    resolveSleep();
  };
  const stop = () => {
    stopping = true;
    wake();
  };
  process.on("SIGTERM", stop);
  process.on("SIGHUP", stop);
  // Ctrl-C typed by a person in the control pane must not take the org's daemon down.
  process.on("SIGINT", () => say("the daemon keeps running; stop the org with `org down`"));
  await mkdir(paths.queue, { recursive: true });
  // A submit wakes the verifier at once instead of at the next refresh.
  const unwatch = watchDir(paths.queue, wake);
  const notifier = await Notifier.start({ record, config: "loaded" in read ? read.loaded.config : undefined, say, io: tmux.openNoticePort() });
  const hotReload = new HotReload({ root: opts.root, world, readConfig, say });
  await hotReload.start(read);
  // One cached read of org.yaml for the services that tick on it: parsed once per change, not once per service.
  const cachedConfig = cacheConfigRead(readConfig, join(opts.root, "org.yaml"));
  const standups = new StandupScheduler({ root: opts.root, readConfig: cachedConfig, say });
  // Token usage from what each agent CLI records: usage.json per agent, which `org status` shows as it is.
  const tokens = new UsagePoller({ root: opts.root, readConfig: cachedConfig, say });
  const startedAt = new Date().toISOString();
  const paneFeed = tmux.openPaneFeed();
  let heads: { at: number; map: Map<string, string> } | undefined;
  // A reload never changes the org's name or repo, so one stamp serves the daemon's life.
  const refStamp = new RefStamp(record.repo, `refs/heads/org/${record.name}`);
  let headsMoved = false;
  const cachedHeads = async (current: OrgRecord) => {
    // A move seen between refreshes is remembered until the next one.
    headsMoved = (await refStamp.mayHaveMoved()) || headsMoved;
    if (!heads || (Date.now() - heads.at > HEADS_MS && headsMoved)) {
      headsMoved = false;
      heads = { at: Date.now(), map: await world.git.branchHeads(current.repo, `org/${current.name}/`) };
    }
    return heads.map;
  };
  // The table reads every agent's status.json each refresh; most have not changed since the last one.
  const tableWorld = { ...world, files: { ...world.files, readText: cachedReadText() } };
  let lastDraw = 0;
  let drawn = { screen: "", at: 0, said: 0 };
  const drawTable = async () => {
    // The table's panes come over a standing client and its branch heads are a little stale: an idle org spawns nothing for it.
    const { panes, people } = await paneFeed.capture([]);
    if (people === 0 && said === drawn.said && Date.now() - drawn.at < UNWATCHED_REFRESH_MS) return;
    const table = await readSnapshot(tableWorld, opts.root, { panes, branches: cachedHeads }).then(renderStatus, (error: Error) => `status unavailable: ${error.message}`);
    const screen = `${table}\n\n${feed.join("\n")}`;
    // An unchanged table is not drawn again (tmux would parse it for nothing), but the clock says we live.
    if (screen === drawn.screen && Date.now() - drawn.at < REDRAW_MS) return;
    drawn = { screen, at: Date.now(), said };
    process.stdout.write(`\x1b[H\x1b[2J${screen}\n\n[org daemon pid ${process.pid}] ${new Date().toLocaleTimeString()}\n`);
  };
  let heartbeatProblem = "";
  while (!stopping) {
    // A full disk must not end the loop: the heartbeat resumes when space returns. Each problem is said once, not every refresh.
    await writeJsonAtomic(paths.daemon, { pid: process.pid, startedAt, heartbeatAt: new Date().toISOString(), queuePerAgent: verifier.queuePerAgent, usage }).then(() => {
      heartbeatProblem = "";
    }, (error: Error) => {
      if (error.message !== heartbeatProblem) say(`heartbeat: ${error.message}${error instanceof OrgError && error.code === "disk-full" ? "; the daemon keeps running and beats again once there is room" : ""}`);
      heartbeatProblem = error.message;
    });
    hotReload.tick();
    void standups.tick(new Date());
    void tokens.tick(new Date());
    await verifier?.tick(new Date()).catch((error: Error) => say(`verifier: ${error.message}`));
    if (Date.now() - lastDraw >= REFRESH_MS) {
      lastDraw = Date.now();
      await drawTable();
    }
    if (!woken) {
      await new Promise<void>((resolve) => {
        resolveSleep = resolve;
        setTimeout(resolve, REFRESH_MS);
      });
    }
    woken = false;
  }
  unwatch();
  supervising = false;
  clearInterval(watching);
  supervisor.close();
  await supervision;
  paneFeed.close();
  screenPort.close?.();
  await hotReload.stop();
  await standups.stop();
  await tokens.stop();
  await notifier.stop();
  await verifier?.stop();
  return 0;
}
