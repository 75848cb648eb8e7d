import { defineCommand, type OptionSpec, type TableRow } from "./command-table.js";

const JSON_OPTION: OptionSpec = { flags: "--json", description: "machine-readable" };
const NO_ATTACH: OptionSpec = { flags: "--no-attach", description: "do not attach, even at a terminal" };
const NO_TMUX: OptionSpec = { flags: "--no-tmux", description: "run every pane in node-pty instead of tmux " +
  "(automatic when tmux is missing); watch with `org watch`" };

/** Run the org: write and check org.yaml, start and stop it, plan and apply a reload, the demo. */
export const RUN_COMMANDS: readonly TableRow[] = [
  defineCommand<{ force?: boolean; template?: string }>({
    name: "init", description: "write org.yaml guessed from the repo, and a prompt",
    options: [
      { flags: "--force", description: "overwrite an existing org.yaml" },
      { flags: "--template <name>",
        description: "a topology with a prompt per role: pipeline, hierarchy, independent, "
          + "autoresearch, or software (a web app: gates, a browser suite, a rubric judge)" },
    ],
    run: async ({ opts, dir, io }) => (await import("./commands/init.js"))
      .runInit({ cwd: dir ?? process.cwd(), force: opts.force, template: opts.template }, io),
  }),
  defineCommand<{ run?: boolean; json?: boolean }>({
    name: "validate", description: "check org.yaml and report every problem at once",
    options: [
      { flags: "--run",
        description: "also check the repo as `org up` does and run the verify command once on the base" },
      JSON_OPTION,
    ],
    run: async ({ opts, root, io }) => (await import("./commands/validate.js"))
      .runValidate({ cwd: root(), run: opts.run === true, json: Boolean(opts.json) }, io),
  }),
  defineCommand<{ attach: boolean; tmux: boolean; resume?: boolean; ab?: string; wait?: boolean }>({
    name: "up", description: "create worktrees, lease GPUs and start the grid (idempotent)",
    options: [
      NO_ATTACH, NO_TMUX,
      { flags: "--resume", description: "go on past the stop conditions org.yaml's stop section says are met" },
      { flags: "--ab <file>", description: "an A/B run: org.yaml's agents (program A) and the agents of <file> " +
        "(program B, prefixed b-) side by side on the same repo and verifier" },
      { flags: "--wait",
        description: "wait until the baselines are judged: exit 1, with the reason and run log, when none measured" },
    ],
    run: async ({ opts, root, io }) => (await import("./commands/up.js")).runUp({
      root: root(), attach: opts.attach, tmux: opts.tmux, resume: opts.resume === true, wait: opts.wait === true,
      ...(opts.ab !== undefined ? { ab: opts.ab } : {}),
    }, io),
  }),
  defineCommand<{ attach: boolean; tmux: boolean }>({
    name: "demo", description: "create the toy research repo of the demo org (first run), then `org up`",
    options: [NO_ATTACH, NO_TMUX],
    run: async ({ opts, root, io }) => (await import("./commands/demo.js"))
      .runDemo({ root: root(), attach: opts.attach, tmux: opts.tmux }, io, (await import("./commands/up.js")).runUp),
  }),
  defineCommand<{ clean?: boolean }>({
    name: "down", description: "stop every process and the tmux server of this org",
    options: [{ flags: "--clean", description: "also remove clean worktrees (branches are kept)" }],
    run: async ({ opts, root, io }) =>
      (await import("./commands/down.js")).runDown({ root: root(), clean: Boolean(opts.clean) }, io),
  }),
  defineCommand<{ json?: boolean }>({
    name: "doctor", description: "check node, git, tmux, nvidia-smi and the runtimes", options: [JSON_OPTION],
    run: async ({ opts, root, io }) =>
      (await import("./commands/doctor.js")).runDoctor({ root: root(), json: Boolean(opts.json) }, io),
  }),
  defineCommand<{ file?: string; json?: boolean }>({
    name: "plan", description: "the actions reloading org.yaml would take on the running org; changes nothing",
    options: [
      { flags: "-f, --file <file>", description: "plan a draft instead of org.yaml (keep it next to org.yaml)" },
      JSON_OPTION,
    ],
    run: async ({ opts, root, io }) => (await import("./commands/plan.js"))
      .runPlan({ root: root(), file: opts.file, cwd: process.cwd(), json: Boolean(opts.json) }, io),
  }),
  defineCommand({
    name: "reload",
    description: "apply org.yaml and the prompts to the running org now (run by a meta agent: propose its copy)",
    run: async ({ root, io }) => (await import("./commands/reload.js")).runReload({ root: root() }, io),
  }),
];
