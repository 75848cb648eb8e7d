import { Command, Option } from "commander";
import type { Io } from "./io.js";

/** One option as commander takes it: `--json`, `-n, --lines <n>`, `--no-attach`. */
export interface OptionSpec {
  flags: string;
  description: string;
  default?: string;
  /** The values it accepts; anything else is a usage error. */
  choices?: readonly string[];
  required?: boolean;
}

/** What a command's run is handed: its arguments and options as parsed, the org's folder and the output. */
export interface Call<O extends object, A extends unknown[]> {
  args: A;
  opts: O;
  /** The org's folder: --dir, $ORG_ROOT, or found upward (findOrgRoot); read only by the commands that need one. */
  root: () => string;
  /** --dir as given, when it was. */
  dir: string | undefined;
  io: Io;
}

/** A row of the command table: what `org <name>` takes, and how it runs. */
export interface CommandSpec<O extends object = object, A extends unknown[] = []> {
  /** Its words after `org`: `program show` is `show` under `program`, which the table defines first. */
  name: string;
  args?: readonly (readonly [syntax: string, description?: string])[];
  description?: string;
  options?: readonly OptionSpec[];
  /** One org starts itself (the daemon, a pane host): no help lists it. */
  hidden?: boolean;
  /** Imports the command's module when it runs, never before: `org status` loads none of `org submit`'s code. */
  run?: (call: Call<O, A>) => Promise<number>;
}

/** A row whatever its options' and arguments' types, as the table holds it. */
export type TableRow = CommandSpec<object, unknown[]>;

/** A table row, typed where it is written: `run` sees its own options and arguments. */
export function defineCommand<O extends object = object, A extends unknown[] = []>(spec: CommandSpec<O, A>): TableRow {
  const { run } = spec;
  return { ...spec, run: run && ((call) => run(call as unknown as Call<O, A>)) };
}

/** How rows become commander commands: where the org is, the output, and where each run's exit code goes. */
export interface TableContext {
  root: () => string;
  dir: () => string | undefined;
  io: Io;
  /** Takes a finished run's exit code as `org`'s. */
  exit: (code: number) => void;
}

/** Each row onto `program`, in the table's order: that is the order `--help` lists options and subcommands in. */
export function registerCommands(program: Command, rows: readonly TableRow[], context: TableContext): void {
  for (const row of rows) {
    const words = row.name.split(" ");
    const parent = words.slice(0, -1).reduce(findSub, program);
    const name = words.at(-1)!;
    const command = row.hidden ? new Command(name) : parent.command(name);
    for (const [syntax, description] of row.args ?? []) command.argument(syntax, description);
    if (row.description !== undefined) command.description(row.description);
    for (const option of row.options ?? []) addOption(command, option);
    const { run } = row;
    const count = row.args?.length ?? 0;
    if (run) {
      command.action(async (...given: unknown[]) => {
        const opts = given[count] as object;
        const { root, io } = context;
        context.exit(await run({ args: given.slice(0, count), opts, root, dir: context.dir(), io }));
      });
    }
    if (row.hidden) parent.addCommand(command, { hidden: true });
  }
}

function addOption(command: Command, option: OptionSpec): void {
  if (option.choices) {
    command.addOption(new Option(option.flags, option.description).choices(option.choices).default(option.default));
  } else if (option.required) command.requiredOption(option.flags, option.description, option.default);
  else command.option(option.flags, option.description, option.default);
}

function findSub(parent: Command, name: string): Command {
  const found = parent.commands.find((sub) => sub.name() === name);
  if (!found) throw new Error(`command table: "${name}" must come before its subcommands`);
  return found;
}
