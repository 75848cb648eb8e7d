import { PtyHost } from "../adapters/pty/host.js";
import { startPtyServer } from "../adapters/pty/server.js";

/**
 * An org's panes held in node-pty and served on `socket`, as the tmux server holds them in tmux mode. `stop` closes
 * the panes, then the server (a second call waits on the first); `done` settles once both are closed.
 */
export async function hostPanes(socket: string): Promise<{ stop: () => void; done: Promise<void> }> {
  const host = await PtyHost.create();
  let stopping: Promise<void> | undefined;
  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  const stop = () => {
    stopping ??= (async () => {
      await host.close();
      await server.close();
      resolveDone();
    })();
  };
  // The server's own shutdown request stops the host too.
  const server = await startPtyServer(host, socket, stop);
  return { stop, done };
}
