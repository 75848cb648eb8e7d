import { closeSync, openSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { OrgError } from "../../domain/errors.js";
import { PTY_SOCKET_PREFIX } from "../../domain/paths.js";
import type {
  NoticePort, PaneFeed, PaneHost, PaneInfo, PaneLaunch, PaneSpec, ScreenPort, PanesPort,
} from "../../domain/ports.js";
import { isAlive, startChild } from "../process.js";
import { PtyClient } from "./client.js";
import { PtyFeed, toPaneInfo } from "./feed.js";
import { openPtyNoticePort } from "./notice-port.js";
import { PtyPaneHost } from "./pane-host-client.js";
import { ptyScreenPort } from "./pty-screen-port.js";

const START_TIMEOUT_MS = 10_000;

/**
 * The grid of an org without tmux, through the same port as tmux: a detached `org pty-host` process holds
 * every pane in a node-pty (the tmux server's part), and each call here is a request on its socket. So the
 * daemon, `org down`, `org status`, reload and `org watch` run unchanged; panes outlive the daemon as in tmux.
 */
export class PtyGrid implements PanesPort {
  private readonly path: string;

  constructor(
    readonly socket: string,
    readonly session: string,
    private readonly orgArgv: string[],
  ) {
    this.path = socket.slice(PTY_SOCKET_PREFIX.length);
  }

  async isRunning(): Promise<boolean> {
    const client = await PtyClient.connect(this.path).catch(() => undefined);
    client?.close();
    return client !== undefined;
  }

  async createGrid(panes: PaneSpec[]): Promise<PaneInfo[]> {
    await this.startHost();
    const ids = await this.addPanes(panes);
    const listed = await this.listPanes();
    return ids.map((id) => {
      const pane = listed.find((one) => one.id === id);
      if (!pane)
        throw new OrgError(
          `the pty host started pane ${id} but does not list it — run \`org down\`, then \`org up\``,
          "pty",
        );
      return pane;
    });
  }

  async listPanes(): Promise<PaneInfo[]> {
    const client = await PtyClient.connect(this.path).catch(() => undefined);
    if (!client) return [];
    try {
      return (await client.list()).map(toPaneInfo);
    } finally {
      client.close();
    }
  }

  async killServer(): Promise<void> {
    const client = await PtyClient.connect(this.path).catch(() => undefined);
    await client?.shutdown().catch(() => undefined);
    client?.close();
    // A host killed outright leaves its socket file behind.
    await rm(this.path, { force: true });
  }

  /** `org watch`: the dashboard is how a person sees and types into pty panes. */
  attachArgv(): string[] {
    return [...this.orgArgv, "-C", dirname(dirname(this.path)), "watch"];
  }

  async selectPane(): Promise<void> {}

  openPaneFeed(): PaneFeed {
    return new PtyFeed(this.path);
  }

  openPaneHost(): PaneHost {
    return new PtyPaneHost(this.path);
  }

  /** The daemon's screen watch: screens to read, keys to type. */
  openScreenPort(): ScreenPort {
    return ptyScreenPort(this.path);
  }

  /** The daemon's notifier: looks and pastes over the host's socket, as over tmux's control client. */
  openNoticePort(): NoticePort {
    return openPtyNoticePort(this.path);
  }

  respawnPane(pane: string, launch?: PaneLaunch): Promise<void> {
    return this.call((client) => client.respawn(pane, launch));
  }

  addPanes(panes: PaneSpec[]): Promise<string[]> {
    if (panes.length === 0) return Promise.resolve([]);
    return this.call((client) =>
      client.open(
        panes.map((pane) => ({
          argv: pane.argv,
          cwd: pane.cwd,
          env: pane.env ?? {},
          options: pane.options,
          logFile: pane.logFile,
        })),
      ),
    );
  }

  killPanes(ids: string[]): Promise<void> {
    return this.call((client) => client.kill(ids));
  }

  setPaneOptions(pane: string, options: Record<string, string>): Promise<void> {
    return Object.keys(options).length === 0 ? Promise.resolve() : this.call((client) => client.options(pane, options));
  }

  // Each pty pane has its own full-size terminal: there is no layout to tile.
  async retile(): Promise<void> {}

  private async call<T>(request: (client: PtyClient) => Promise<T>): Promise<T> {
    const client = await PtyClient.connect(this.path);
    try {
      return await request(client);
    } finally {
      client.close();
    }
  }

  // Detached in its own session, like a tmux server: `org up` returns and the panes keep running.
  private async startHost(): Promise<void> {
    const logFile = join(dirname(this.path), "pty-host.log");
    const log = openSync(logFile, "a");
    const child = startChild([...this.orgArgv, "pty-host", "--socket", this.path], {
      detached: true,
      stdio: ["ignore", log, log],
      cwd: dirname(this.path),
    });
    closeSync(log);
    child.unref();
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!(await this.isRunning())) {
      if (child.pid === undefined || !isAlive(child.pid) || Date.now() > deadline) {
        if (child.pid !== undefined && isAlive(child.pid)) process.kill(child.pid, "SIGKILL");
        const tail = readFileSync(logFile, "utf8").trim().split("\n").slice(-3).join(" | ");
        throw new OrgError(`the pty host did not start (${tail || "no output"}) — see ${logFile}, or use tmux`, "pty");
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}
