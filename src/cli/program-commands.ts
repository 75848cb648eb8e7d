import { defineCommand, type OptionSpec, type TableRow } from "./command-table.js";

const JSON_OPTION: OptionSpec = { flags: "--json", description: "machine-readable" };
const VERSION_ARG = ["<version>", "a version or a unique prefix, as `org history` lists them"] as const;

/** The org's programs: org.yaml and its prompts as each version ran, shown, restored, compared. */
export const PROGRAM_COMMANDS: readonly TableRow[] = [
  defineCommand({
    name: "program",
    description: "the org's program versions: org.yaml and its prompts as each version ran (state/programs/)",
  }),
  defineCommand<object, [string]>({
    name: "program show", args: [VERSION_ARG],
    description: "print a version's org.yaml, its prompts, and what restoring it would change",
    run: async ({ args: [version], root, io }) =>
      (await import("./commands/program-show.js")).runProgramShow({ root: root(), version }, io),
  }),
  defineCommand<object, [string]>({
    name: "program restore", args: [VERSION_ARG],
    description: "write a version's org.yaml and prompts back, checked as a save is; a running org applies it",
    run: async ({ args: [version], root, io }) =>
      (await import("./commands/program-restore.js")).runProgramRestore({ root: root(), version }, io),
  }),
  defineCommand<{ json?: boolean }>({
    name: "history",
    description: "one line per program version: when it ran, agents, experiments, keeps, best, GPU-hours, tokens and $",
    options: [JSON_OPTION],
    run: async ({ opts, root, io }) =>
      (await import("./commands/history.js")).runHistory({ root: root(), json: Boolean(opts.json) }, io),
  }),
  defineCommand<{ json?: boolean }, [string[]]>({
    name: "compare",
    args: [["[versions...]", "A and B: versions or unique prefixes as `org history` lists them, or unversioned; " +
      "none: the last two"]],
    description: "two program versions side by side: best gain per GPU-hour and per $, keep and crash rates, " +
      "experiments to the first keep, with 95 % bootstrap intervals",
    options: [JSON_OPTION],
    run: async ({ args: [ids], opts, root, io }) =>
      (await import("./commands/compare.js")).runCompare({ root: root(), ids, json: Boolean(opts.json) }, io),
  }),
];
