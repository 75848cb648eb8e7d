import type { AgentPane, PaneHost, PaneLaunch } from "../org/ports.js";
import { PtyClient } from "./pty-client.js";

/** The daemon's supervisor's view of the agent panes of an `org pty-host`, over one standing connection. */
export class PtyPaneHost implements PaneHost {
  private client: PtyClient | undefined;

  constructor(private readonly path: string) {}

  async listAgentPanes(): Promise<AgentPane[] | undefined> {
    const client = await this.connect();
    const reply = client ? await client.request({ op: "list" }) : undefined;
    if (!reply?.ok || !reply.panes) return undefined;
    return reply.panes.filter((pane) => pane.agent !== "").map(({ agent, id, pid, dead, exitCode, exitSignal, exitedAt }) => ({ agent, id, pid, dead, exitCode, exitSignal, exitedAt }));
  }

  async respawn(id: string, launch: PaneLaunch): Promise<void> {
    const client = await this.connect();
    if (!client) throw new Error(`cannot respawn pane ${id}: the pty host is not running`);
    await client.respawn(id, launch);
  }

  async setStatus(id: string, status: string): Promise<void> {
    await (await this.connect())?.options(id, { "@org_status": status });
  }

  close(): void {
    this.client?.close();
    this.client = undefined;
  }

  private async connect(): Promise<PtyClient | undefined> {
    if (this.client && !this.client.isClosed) return this.client;
    this.client = await PtyClient.connect(this.path).catch(() => undefined);
    return this.client;
  }
}
