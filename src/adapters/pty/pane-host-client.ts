import type { AgentPane, PaneHost, PaneLaunch } from "../../domain/ports.js";
import { PtyConnection } from "./connection.js";

/** The daemon's supervisor's view of the agent panes of an `org pty-host`, over one standing connection. */
export class PtyPaneHost implements PaneHost {
  private readonly connection: PtyConnection;

  constructor(path: string) {
    this.connection = new PtyConnection(path);
  }

  async listAgentPanes(): Promise<AgentPane[] | undefined> {
    const client = await this.connection.get();
    const reply = client ? await client.request({ op: "list" }) : undefined;
    if (!reply?.ok || !reply.panes) return undefined;
    return reply.panes
      .filter((pane) => pane.agent !== "")
      .map(({ agent, id, pid, dead, exitCode, exitSignal, exitedAt }) => ({
        agent,
        id,
        pid,
        dead,
        exitCode,
        exitSignal,
        exitedAt,
      }));
  }

  async respawn(id: string, launch: PaneLaunch): Promise<void> {
    const client = await this.connection.get();
    if (!client) throw new Error(`cannot respawn pane ${id}: the pty host is not running`);
    await client.respawn(id, launch);
  }

  async setStatus(id: string, status: string): Promise<void> {
    await (await this.connection.get())?.options(id, { "@org_status": status });
  }

  close(): void {
    this.connection.close();
  }
}
