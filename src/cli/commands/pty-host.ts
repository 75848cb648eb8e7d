import { PtyHost } from "../../adapters/pty/host.js";
import { startPtyServer } from "../../adapters/pty/server.js";

/** `org pty-host --socket PATH` (hidden): holds an org's panes in node-pty, as the tmux server does in tmux mode, until shut down. */
export async function runPtyHost(opts: { socket: string }): Promise<number> {
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
  const server = await startPtyServer(host, opts.socket, stop);
  // Started detached with no terminal: a hangup or Ctrl-C reaching us is a stop, never a crash that strands panes.
  for (const signal of ["SIGTERM", "SIGHUP", "SIGINT"] as const) process.on(signal, stop);
  process.stdout.write(`[org pty-host] pid ${process.pid} serving ${opts.socket}\n`);
  await done;
  return 0;
}
