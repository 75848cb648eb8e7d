import { readFileSync } from "node:fs";
import { Command, Option } from "commander";
import { findOrgRoot, stdio, toSafeIo, type Io } from "./io.js";
import { reportError, wantsJson } from "./report-error.js";
import { describeCommands } from "./help.js";
import { registerAgentCommands } from "./agent-commands.js";
import type { CommandContext, Run } from "./command-context.js";
import { registerInternalCommands } from "./internal-commands.js";

type TracesOptions = { experiment?: string; grep?: string; since?: string; diverged?: boolean; json?: boolean };

/** Parse argv, run one command, return the exit code; user errors print as one clear message. */
export async function main(argv: string[], given: Io = stdio): Promise<number> {
  const io = toSafeIo(given);
  let code = 0;
  // Under --json an error is one JSON object on stdout (docs/scripting.md): commander's own message is left out.
  const json = wantsJson(argv);
  const program = new Command("org")
    .description("Run an autonomous research organization of coding agents.")
    .version(readVersion(), "-V, --version", "print org's version")
    .option("-C, --dir <dir>", "the org's folder (holding org.yaml); default: found upward from the current folder")
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.out(text.trimEnd()), writeErr: (text) => io.err(text.trimEnd()),
      outputError: (text, write) => {
        if (!json) write(text);
      },
    });
  const root = () => findOrgRoot(program.opts<{ dir?: string }>().dir);
  const run: Run = (action) => async (...args) => {
    code = await action(...args);
  };
  const context: CommandContext = { program, run, root, io };

  program.command("init")
    .description("write org.yaml guessed from the repo, and a prompt")
    .option("--force", "overwrite an existing org.yaml")
    .option("--template <name>", "a topology with a prompt per role: pipeline, hierarchy, independent, "
      + "autoresearch, or software (a web app: gates, a browser suite, a rubric judge)")
    .action(run(async (opts: { force?: boolean; template?: string }) => {
      const { runInit } = await import("./commands/init.js");
      const cwd = program.opts<{ dir?: string }>().dir ?? process.cwd();
      return runInit({ cwd, force: opts.force, template: opts.template }, io);
    }));
  program.command("validate").description("check org.yaml and report every problem at once")
    .option("--run", "also check the repo as `org up` does and run the verify command once on the base")
    .option("--json", "machine-readable")
    .action(run(async (opts: { run?: boolean; json?: boolean }) => (await import("./commands/validate.js"))
      .runValidate({ cwd: root(), run: opts.run === true, json: Boolean(opts.json) }, io)));
  program.command("up")
    .description("create worktrees, lease GPUs and start the grid (idempotent)")
    .option("--no-attach", "do not attach, even at a terminal")
    .option("--no-tmux", "run every pane in node-pty instead of tmux (automatic when tmux is missing); " +
      "watch with `org watch`")
    .option("--resume", "go on past the stop conditions org.yaml's stop section says are met")
    .option("--ab <file>", "an A/B run: org.yaml's agents (program A) and the agents of <file> " +
      "(program B, prefixed b-) side by side on the same repo and verifier")
    .option("--wait", "wait until the baselines are judged: exit 1, with the reason and run log, when none measured")
    .action(run(async (opts: { attach: boolean; tmux: boolean; resume?: boolean; ab?: string; wait?: boolean }) => {
      const { runUp } = await import("./commands/up.js");
      const ab = opts.ab !== undefined ? { ab: opts.ab } : {};
      return runUp({
        root: root(), attach: opts.attach, tmux: opts.tmux,
        resume: opts.resume === true, wait: opts.wait === true, ...ab,
      }, io);
    }));
  program.command("demo")
    .description("create the toy research repo of the demo org (first run), then `org up`")
    .option("--no-attach", "do not attach, even at a terminal")
    .option("--no-tmux", "run every pane in node-pty instead of tmux (automatic when tmux is missing); " +
      "watch with `org watch`")
    .action(run(async (opts: { attach: boolean; tmux: boolean }) => {
      const { runDemo } = await import("./commands/demo.js");
      return runDemo({ root: root(), attach: opts.attach, tmux: opts.tmux }, io,
        (await import("./commands/up.js")).runUp);
    }));
  program.command("status")
    .description("every agent with role, GPU, pid, state, restarts, uptime, head")
    .option("--json", "machine-readable")
    .action(run(async (opts: { json?: boolean }) => {
      const { runStatus } = await import("./commands/status.js");
      return runStatus({ root: root(), json: Boolean(opts.json) }, io);
    }));
  program.command("attach").argument("[agent]", "select this agent's pane").description("attach to the grid")
    .action(run(async (agent?: string) => {
      const { runAttach } = await import("./commands/attach.js");
      return runAttach({ root: root(), agent }, io);
    }));
  program.command("logs").argument("<agent>", "an agent name, or daemon").description("an agent's pane output")
    .option("-f, --follow", "keep printing new output")
    .option("-n, --lines <n>", "lines to show", "100")
    .action(run(async (agent: string, opts: { follow?: boolean; lines: string }) => {
      const { runLogs } = await import("./commands/logs.js");
      return runLogs({ root: root(), agent, follow: Boolean(opts.follow), lines: Number(opts.lines) || 100 }, io);
    }));
  program.command("down")
    .description("stop every process and the tmux server of this org")
    .option("--clean", "also remove clean worktrees (branches are kept)")
    .action(run(async (opts: { clean?: boolean }) => {
      const { runDown } = await import("./commands/down.js");
      return runDown({ root: root(), clean: Boolean(opts.clean) }, io);
    }));
  program.command("doctor")
    .description("check node, git, tmux, nvidia-smi and the runtimes")
    .option("--json", "machine-readable")
    .action(run(async (opts: { json?: boolean }) => {
      const { runDoctor } = await import("./commands/doctor.js");
      return runDoctor({ root: root(), json: Boolean(opts.json) }, io);
    }));
  registerAgentCommands(context);
  program.command("plan")
    .description("the actions reloading org.yaml would take on the running org; changes nothing")
    .option("-f, --file <file>", "plan a draft instead of org.yaml (keep it next to org.yaml)")
    .option("--json", "machine-readable")
    .action(run(async (opts: { file?: string; json?: boolean }) => {
      const { runPlan } = await import("./commands/plan.js");
      return runPlan({ root: root(), file: opts.file, cwd: process.cwd(), json: Boolean(opts.json) }, io);
    }));
  program.command("reload")
    .description("apply org.yaml and the prompts to the running org now (run by a meta agent: propose its copy)")
    .action(run(async () => (await import("./commands/reload.js")).runReload({ root: root() }, io)));
  const programs = program.command("program")
    .description("the org's program versions: org.yaml and its prompts as each version ran (state/programs/)");
  programs.command("show")
    .argument("<version>", "a version or a unique prefix, as `org history` lists them")
    .description("print a version's org.yaml, its prompts, and what restoring it would change")
    .action(run(async (version: string) => {
      const { runProgramShow } = await import("./commands/program-show.js");
      return runProgramShow({ root: root(), version }, io);
    }));
  programs.command("restore")
    .argument("<version>", "a version or a unique prefix, as `org history` lists them")
    .description("write a version's org.yaml and prompts back, checked as a save is; a running org applies it")
    .action(run(async (version: string) => {
      const { runProgramRestore } = await import("./commands/program-restore.js");
      return runProgramRestore({ root: root(), version }, io);
    }));
  program.command("history")
    .description("one line per program version: when it ran, agents, experiments, keeps, best, GPU-hours, tokens and $")
    .option("--json", "machine-readable")
    .action(run(async (opts: { json?: boolean }) => {
      const { runHistory } = await import("./commands/history.js");
      return runHistory({ root: root(), json: Boolean(opts.json) }, io);
    }));
  program.command("compare")
    .argument("[versions...]", "A and B: versions or unique prefixes as `org history` lists them, or unversioned; " +
      "none: the last two")
    .description("two program versions side by side: best gain per GPU-hour and per $, keep and crash rates, " +
      "experiments to the first keep, with 95 % bootstrap intervals")
    .option("--json", "machine-readable")
    .action(run(async (ids: string[], opts: { json?: boolean }) => {
      const { runCompare } = await import("./commands/compare.js");
      return runCompare({ root: root(), ids, json: Boolean(opts.json) }, io);
    }));
  program.command("lineage")
    .description("the tree of kept commits: which keep built on which (own chain, follow, stack), " +
      "and the share built on another agent's result")
    .option("--json", "machine-readable")
    .action(run(async (opts: { json?: boolean }) => {
      const { runLineage } = await import("./commands/lineage.js");
      return runLineage({ root: root(), json: Boolean(opts.json) }, io);
    }));
  program.command("traces").argument("[agent]", "an agent: its experiments, each from its CLI's own transcript")
    .description("what each agent expected, ran and was told, per experiment, from its CLI's transcript; " +
      "--diverged: every discard and crash")
    .option("--experiment <id>", "one experiment whole (an id or a commit), every event of it")
    .option("--grep <regex>", "only events matching; without an agent, every agent's transcript")
    .option("--since <when>", "from a duration ago (30m, 2h, 1d) or a time (2026-12-05T04:00Z)")
    .option("--diverged", "every discard and crash, the agent's stated expectation beside the verdict")
    .option("--json", "machine-readable")
    .action(run(async (agent: string | undefined, opts: TracesOptions) => {
      const { runTraces } = await import("./commands/traces.js");
      const flags = { diverged: Boolean(opts.diverged), json: Boolean(opts.json) };
      return runTraces({ root: root(), agent, ...opts, ...flags }, io);
    }));
  program.command("ablate").argument("[commit]", "a kept commit (default: the org best)")
    .description("what each kept change of the best contributes: the best without it, measured in the verifier's queue")
    .option("--json", "machine-readable")
    .action(run(async (commit: string | undefined, opts: { json?: boolean }) => {
      const { runAblate } = await import("./commands/ablate.js");
      return runAblate({ root: root(), commit, json: Boolean(opts.json) }, io);
    }));
  program.command("results")
    .description("the leaderboard: best per agent, the org's best, counts per verdict")
    .option("--json", "machine-readable")
    .action(run(async (opts: { json?: boolean }) => {
      const { runResults } = await import("./commands/results.js");
      return runResults({ root: root(), json: Boolean(opts.json) }, io);
    }));
  program.command("tried")
    .argument("[words...]", "only ideas whose description, agent, verdict or commit holds every word (any case)")
    .description("every idea tried in the org, newest first: description, agent, verdict, delta, commit — " +
      "run it before trying an idea")
    .option("--json", "machine-readable")
    .action(run(async (words: string[], opts: { json?: boolean }) => {
      const { runTried } = await import("./commands/tried.js");
      return runTried({ root: root(), text: words.join(" "), json: Boolean(opts.json) }, io);
    }));
  program.command("watch")
    .description("live dashboard: every agent's pane, GPU leases, leaderboard and events " +
      "(q quits, the org keeps running)")
    .action(run(async () => (await import("./commands/watch.js")).runWatch({ root: root() }, io)));
  program.command("report").description("write a self-contained HTML progress report and an SVG chart from results.tsv")
    .option("-o, --out <file>", "the HTML page (default: state/report.html)")
    .option("--svg <file>", "the SVG chart (default: state/progress.svg)")
    .addOption(new Option("--x <axis>", "x axis: experiment index or time").choices(["index", "time"]).default("index"))
    .action(run(async (opts: { out?: string; svg?: string; x: "index" | "time" }) => {
      const { runReport } = await import("./commands/report.js");
      return runReport({ root: root(), ...opts }, io);
    }));
  registerInternalCommands(context, main);
  program.addOption(new Option("--debug", "print stack traces").hideHelp());
  describeCommands(program);
  // --wide: the tables whole, as a pipe gets them.
  program.hook("preAction", (_program, command) => {
    if (command.opts<{ wide?: boolean }>().wide) io.columns = undefined;
  });

  try {
    await program.parseAsync(argv, { from: "user" });
    return code;
  } catch (error) {
    return reportError(error, io, { debug: program.opts<{ debug?: boolean }>().debug, json });
  }
}

// package.json sits two folders up from both src/cli/main.ts and its bundle, dist/bundle/main.js.
function readVersion(): string {
  const manifest = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
  return (JSON.parse(manifest) as { version: string }).version;
}
