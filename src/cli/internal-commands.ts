import { defineCommand, type TableRow } from "./command-table.js";

import type { Io } from "./io.js";

type Main = (argv: string[], io?: Io) => Promise<number>;

/** The hidden commands org starts itself: built-in agents, the daemon, its keeper, pane hosts, Slurm steps, workers. */
export function listInternalCommands(main: Main): TableRow[] {
  return [
    defineCommand<object, [string]>({
      name: "builtin", hidden: true, args: [["<name>", "hillclimb or chief"]],
      run: async ({ args: [name], io }) => (await import("./commands/builtin.js")).runBuiltin({ name }, io),
    }),
    defineCommand<{ root: string }>({
      name: "daemon", hidden: true, options: [{ flags: "--root <dir>", description: "", required: true }],
      run: async ({ opts }) => (await import("./commands/daemon.js")).runDaemon({ root: opts.root }),
    }),
    defineCommand<{ root: string }>({
      name: "keeper", hidden: true, options: [{ flags: "--root <dir>", description: "", required: true }],
      run: async ({ opts }) => (await import("./commands/keeper.js")).runKeeper({ root: opts.root }),
    }),
    defineCommand<{ socket: string }>({
      name: "pty-host", hidden: true, options: [{ flags: "--socket <path>", description: "", required: true }],
      run: async ({ opts }) => (await import("./commands/pty-host.js")).runPtyHost({ socket: opts.socket }),
    }),
    defineCommand<{ state: string; resume?: boolean }, [string]>({
      name: "slurm-run", hidden: true, args: [["<agent>"]],
      options: [{ flags: "--state <dir>", description: "", required: true }, { flags: "--resume", description: "" }],
      run: async ({ args: [agent], opts, io }) =>
        (await import("./commands/slurm-run.js")).runSlurmRun({ agent, ...opts }, io),
    }),
    // A brokered command's warm worker: `main` itself runs the request it is handed (see outbox-warm.ts).
    defineCommand({
      name: "outbox-worker", hidden: true,
      run: async () => (await import("./outbox-worker.js")).runOutboxWorker((args, io) => main(args, io)),
    }),
  ];
}
