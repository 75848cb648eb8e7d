import { readFileSync } from "node:fs";
import { Command, Option } from "commander";
import { findOrgRoot, stdio, toSafeIo, type Io } from "./io.js";
import { reportError, wantsJson } from "./report-error.js";
import { describeCommands } from "./help.js";
import { AGENT_COMMANDS } from "./agent-commands.js";
import { registerCommands, type TableRow } from "./command-table.js";
import { listInternalCommands } from "./internal-commands.js";
import { PROGRAM_COMMANDS } from "./program-commands.js";
import { RUN_COMMANDS } from "./run-commands.js";
import { VIEW_COMMANDS } from "./view-commands.js";

/**
 * Every command of `org`, by `org --help`'s groups, then the hidden ones org starts itself: each row says what the
 * command takes and imports its module under commands/ only when it runs (command-table.ts).
 */
function listCommands(): readonly TableRow[] {
  return [...RUN_COMMANDS, ...VIEW_COMMANDS, ...AGENT_COMMANDS, ...PROGRAM_COMMANDS, ...listInternalCommands(main)];
}

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
  const dir = () => program.opts<{ dir?: string }>().dir;
  const context = { root: () => findOrgRoot(dir()), dir, io, exit: (done: number) => void (code = done) };
  registerCommands(program, listCommands(), context);
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

// package.json sits two folders up from both src/cli/main.ts and its bundle, dist/bundle/org.cjs.
function readVersion(): string {
  const manifest = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
  return (JSON.parse(manifest) as { version: string }).version;
}
