import { Command } from "commander";
import type { CommandContext } from "./command-context.js";

type Main = (argv: string[]) => Promise<number>;

/** The hidden commands org starts itself: built-in agents, the daemon, its keeper, pane hosts, Slurm steps, workers. */
export function registerInternalCommands({ program, run, io }: CommandContext, main: Main): void {
  program.addCommand(new Command("builtin").argument("<name>", "hillclimb or chief")
    .action(run(async (name: string) => {
      const { runBuiltin } = await import("./commands/builtin.js");
      return runBuiltin({ name }, io);
    })), { hidden: true });
  program.addCommand(new Command("daemon").requiredOption("--root <dir>")
    .action(run(async (opts: { root: string }) => {
      const { runDaemon } = await import("./commands/daemon.js");
      return runDaemon({ root: opts.root });
    })), { hidden: true });
  program.addCommand(new Command("keeper").requiredOption("--root <dir>")
    .action(run(async (opts: { root: string }) => {
      const { runKeeper } = await import("./commands/keeper.js");
      return runKeeper({ root: opts.root });
    })), { hidden: true });
  program.addCommand(new Command("pty-host").requiredOption("--socket <path>")
    .action(run(async (opts: { socket: string }) => {
      const { runPtyHost } = await import("./commands/pty-host.js");
      return runPtyHost({ socket: opts.socket });
    })), { hidden: true });
  program.addCommand(new Command("slurm-run").argument("<agent>").requiredOption("--state <dir>").option("--resume")
    .action(run(async (agent: string, opts: { state: string; resume?: boolean }) => {
      const { runSlurmRun } = await import("./commands/slurm-run.js");
      return runSlurmRun({ agent, ...opts }, io);
    })), { hidden: true });
  // A brokered command's warm worker: `main` itself runs the request it is handed (see outbox-warm.ts).
  program.addCommand(new Command("outbox-worker")
    .action(run(async () => {
      const { runOutboxWorker } = await import("./outbox-worker.js");
      return runOutboxWorker((args) => main(args));
    })), { hidden: true });
}
