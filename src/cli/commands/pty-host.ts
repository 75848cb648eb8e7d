import { hostPanes } from "../../flows/host-panes.js";

/**
 * `org pty-host --socket PATH` (hidden): holds an org's panes in node-pty, as the tmux server does in tmux mode,
 * until shut down.
 */
export async function runPtyHost(opts: { socket: string }): Promise<number> {
  const { stop, done } = await hostPanes(opts.socket);
  // Started detached with no terminal: a hangup or Ctrl-C reaching us is a stop, never a crash that strands panes.
  for (const signal of ["SIGTERM", "SIGHUP", "SIGINT"] as const) process.on(signal, stop);
  process.stdout.write(`[org pty-host] pid ${process.pid} serving ${opts.socket}\n`);
  await done;
  return 0;
}
