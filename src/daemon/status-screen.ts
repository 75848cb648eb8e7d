import type { PaneFeed, PanesPort } from "../domain/ports.js";
import type { OrgSnapshot } from "../domain/views/snapshot.js";
import type { OrgRecord } from "../domain/state.js";
import { readSnapshot } from "../domain/views/status-snapshot.js";
import type { World } from "../domain/world.js";
import { cachedReadText } from "../adapters/fs/read-cache.js";
import { cacheBranchHeads } from "./branch-heads.js";
import type { Feed } from "./control-feed.js";
import { defineLoop } from "./loop-service.js";
import type { Service } from "./services.js";
import { cleanText } from "../domain/safe-text.js";
import { formatClock } from "../domain/units/index.js";

const REFRESH_MS = 2000;
const REDRAW_MS = 10_000;
// With no one attached the table is only for the log and the next person: it is read this seldom.
const UNWATCHED_REFRESH_MS = 30_000;

/** The control pane's screen: the org's status table with the feed under it, redrawn when it changes. */
export function defineStatusScreen(opts: {
  root: string; world: World; tmux: PanesPort; record: OrgRecord; feed: Feed;
  renderStatus: (snapshot: OrgSnapshot) => string;
}): Service {
  const { world, feed } = opts;
  let paneFeed: PaneFeed | undefined;
  const branches = cacheBranchHeads(world, opts.record);
  // The table reads every agent's status.json each refresh; most have not changed since the last one.
  const tableWorld = { ...world, files: { ...world.files, readText: cachedReadText() } };
  let drawn = { screen: "", at: 0, said: 0 };
  let readAt = 0;
  const draw = async () => {
    // The table's panes come over a standing client and its branch heads are a little stale: an idle org spawns
    // nothing for it.
    const unchanged = () => feed.said === drawn.said && Date.now() - readAt < UNWATCHED_REFRESH_MS;
    // Nobody attached and nothing new to say: one tmux command to know that, not the pane listing too.
    if (unchanged() && (await paneFeed!.countPeople?.()) === 0) return;
    const { panes, people } = await paneFeed!.capture([]);
    if (people === 0 && unchanged()) return;
    readAt = Date.now();
    const table = await readSnapshot(tableWorld, opts.root, { panes, branches }).then(
      opts.renderStatus,
      (error: Error) => `status unavailable: ${error.message}`,
    );
    // The table and feed carry agent text; only our own clear and home escapes may reach the daemon pane.
    const screen = cleanText(`${table}\n\n${feed.text}`);
    // An unchanged table is not drawn again (tmux would parse it for nothing), but the clock says we live to
    // whoever watches: the first look of the next person to attach redraws it.
    if (screen === drawn.screen && (people === 0 || Date.now() - drawn.at < REDRAW_MS)) return;
    drawn = { screen, at: Date.now(), said: feed.said };
    process.stdout.write(
      `\x1b[H\x1b[2J${screen}\n\n[org daemon pid ${process.pid}] ${formatClock(new Date())}\n`,
    );
  };
  return defineLoop({
    name: "status-table",
    periodMs: REFRESH_MS,
    open: async () => void (paneFeed = opts.tmux.openPaneFeed()),
    tick: draw,
    fail: (error) => feed.say(`status table: ${error.message}`),
    close: async () => paneFeed?.close(),
  });
}
