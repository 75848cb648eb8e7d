import { Command, CommanderError, Option } from "commander";
import { ConfigError, ExitError, OrgError } from "../org/errors.js";
import { findOrgRoot, stdio, type Io } from "./io.js";

/** Parse argv, run one command, return the exit code; user errors print as one clear message. */
export async function main(argv: string[], io: Io = stdio): Promise<number> {
  let code = 0;
  const program = new Command("org")
    .description("Run an autonomous research organization of coding agents.")
    .option("-C, --dir <dir>", "the org's folder (holding org.yaml); default: found upward from the current folder")
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.out(text.trimEnd()), writeErr: (text) => io.err(text.trimEnd()) });
  const root = () => findOrgRoot(program.opts<{ dir?: string }>().dir);
  const run = <A extends unknown[]>(action: (...args: A) => Promise<number>) => async (...args: A) => {
    code = await action(...args);
  };

  program.command("init").description("write a starter org.yaml and prompt").option("--force", "overwrite an existing org.yaml")
    .action(run(async (opts: { force?: boolean }) => (await import("./commands/init.js")).runInit({ cwd: program.opts<{ dir?: string }>().dir ?? process.cwd(), force: opts.force }, io)));
  program.command("validate").description("check org.yaml and report every problem at once")
    .action(run(async () => (await import("./commands/validate.js")).runValidate({ cwd: root() }, io)));
  program.command("up").description("create worktrees, lease GPUs and start the grid (idempotent)").option("--no-attach", "do not attach, even at a terminal")
    .action(run(async (opts: { attach: boolean }) => (await import("./commands/up.js")).runUp({ root: root(), attach: opts.attach }, io)));
  program.command("demo").description("create the toy research repo of the demo org (first run), then `org up`").option("--no-attach", "do not attach, even at a terminal")
    .action(run(async (opts: { attach: boolean }) => (await import("./commands/demo.js")).runDemo({ root: root(), attach: opts.attach }, io)));
  program.command("status").description("every agent with role, GPU, pid, state, restarts, uptime, head").option("--json", "machine-readable")
    .action(run(async (opts: { json?: boolean }) => (await import("./commands/status.js")).runStatus({ root: root(), json: Boolean(opts.json) }, io)));
  program.command("attach").argument("[agent]", "select this agent's pane").description("attach to the grid")
    .action(run(async (agent?: string) => (await import("./commands/attach.js")).runAttach({ root: root(), agent }, io)));
  program.command("logs").argument("<agent>", "an agent name, or daemon").description("an agent's pane output")
    .option("-f, --follow", "keep printing new output").option("-n, --lines <n>", "lines to show", "100")
    .action(run(async (agent: string, opts: { follow?: boolean; lines: string }) =>
      (await import("./commands/logs.js")).runLogs({ root: root(), agent, follow: Boolean(opts.follow), lines: Number(opts.lines) || 100 }, io)));
  program.command("down").description("stop every process and the tmux server of this org").option("--clean", "also remove clean worktrees (branches are kept)")
    .action(run(async (opts: { clean?: boolean }) => (await import("./commands/down.js")).runDown({ root: root(), clean: Boolean(opts.clean) }, io)));
  program.command("doctor").description("check node, git, tmux, nvidia-smi and the runtimes")
    .action(run(async () => (await import("./commands/doctor.js")).runDoctor({ root: root() }, io)));
  program.command("submit").description("commit your worktree and hand it to the verifier (run inside an agent worktree)").option("-m, --message <text>", "what you tried")
    .action(run(async (opts: { message?: string }) => (await import("./commands/submit.js")).runSubmit({ root: root(), cwd: process.cwd(), message: opts.message }, io)));
  program.command("results").description("the leaderboard: best per agent, the org's best, counts per verdict").option("--json", "machine-readable")
    .action(run(async (opts: { json?: boolean }) => (await import("./commands/results.js")).runResults({ root: root(), json: Boolean(opts.json) }, io)));
  program.addCommand(new Command("builtin").argument("<name>", "hillclimb")
    .action(run(async (name: string) => (await import("./commands/builtin.js")).runBuiltin({ name }, io))), { hidden: true });
  program.addCommand(new Command("supervise").argument("<agent>").requiredOption("--state <dir>")
    .action(run(async (agent: string, opts: { state: string }) => (await import("./commands/supervise.js")).runSupervise({ state: opts.state, agent }))), { hidden: true });
  program.addCommand(new Command("daemon").requiredOption("--root <dir>")
    .action(run(async (opts: { root: string }) => (await import("./commands/daemon.js")).runDaemon({ root: opts.root }))), { hidden: true });
  program.addOption(new Option("--debug", "print stack traces").hideHelp());

  try {
    await program.parseAsync(argv, { from: "user" });
    return code;
  } catch (error) {
    return reportError(error, io, program.opts<{ debug?: boolean }>().debug);
  }
}

function reportError(error: unknown, io: Io, debug?: boolean): number {
  if (debug && error instanceof Error && !(error instanceof CommanderError)) io.err(error.stack ?? String(error));
  if (error instanceof CommanderError) return error.exitCode;
  if (error instanceof ExitError) return error.exitCode;
  if (error instanceof ConfigError) {
    for (const problem of error.problems) io.err(problem);
    return 1;
  }
  if (error instanceof OrgError) {
    io.err(`org: ${error.message}`);
    return 1;
  }
  io.err(`org: internal error: ${(error as Error)?.stack ?? String(error)}`);
  io.err("this is a bug in org; please report it with the command you ran");
  return 70;
}
