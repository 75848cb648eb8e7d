import { mkdir } from "node:fs/promises";
import { orgPaths } from "../../org/paths.js";
import type { OrgRecord } from "../../org/state.js";
import { readSnapshot } from "../../org/status.js";
import { readJson, watchDir, writeJsonAtomic } from "../../adapters/files.js";
import { Notifier } from "../../adapters/notifier.js";
import { HotReload } from "../../adapters/reload-daemon.js";
import { VerifierHandle } from "../../adapters/reload-verifier.js";
import { createVerifierPort } from "../../adapters/verifier-port.js";
import { VerifierLoop } from "../../adapters/verifier-loop.js";
import { createWorld } from "../../adapters/world.js";
import { renderStatus } from "../../ui/status-table.js";
import { readAndLoadConfig } from "./validate.js";

const REFRESH_MS = 2000;
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
  const feed: string[] = [];
  const say = (line: string) => {
    feed.push(`${new Date().toLocaleTimeString()} ${line}`);
    feed.splice(0, Math.max(0, feed.length - FEED_LINES));
  };
  const readConfig = () => readAndLoadConfig({ cwd: opts.root });
  const read = await readConfig();
  // A reload that changes the agents hands the verifier a new org: the handle swaps loops between runs.
  const verifier = new VerifierHandle(paths, (next, config) => new VerifierLoop(next, config, createVerifierPort({ repo: next.repo, state: paths.state, messages: config.messages }), say), readConfig, say);
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
  const notifier = await Notifier.start({ record, config: "loaded" in read ? read.loaded.config : undefined, say });
  const hotReload = new HotReload({ root: opts.root, world, readConfig, say });
  await hotReload.start(read);
  const startedAt = new Date().toISOString();
  let lastDraw = 0;
  while (!stopping) {
    await writeJsonAtomic(paths.daemon, { pid: process.pid, startedAt, heartbeatAt: new Date().toISOString() });
    hotReload.tick();
    await verifier?.tick(new Date()).catch((error: Error) => say(`verifier: ${error.message}`));
    if (Date.now() - lastDraw >= REFRESH_MS) {
      lastDraw = Date.now();
      const table = await readSnapshot(world, opts.root).then(renderStatus, (error: Error) => `status unavailable: ${error.message}`);
      process.stdout.write(`\x1b[H\x1b[2J${table}\n\n${feed.join("\n")}\n\n[org daemon pid ${process.pid}] ${new Date().toLocaleTimeString()}\n`);
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
  await hotReload.stop();
  await notifier.stop();
  await verifier?.stop();
  return 0;
}
