import { CommanderError } from "commander";
import { ConfigError, ExitError, OrgError } from "../domain/errors.js";
import { buildErrorJson, decideExitCode, describeErrorJson, EXIT } from "../domain/scripting/index.js";
import { formatJson } from "../domain/safe-text.js";
import type { Io } from "./io.js";

const HELP_FIX = "`org --help` lists the commands, `org <command> --help` its options";
const BUG = "this is a bug in org; please report it with the command you ran";

/** `--json` anywhere before `--`: errors print as JSON even when the command line itself did not parse. */
export function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  return (end < 0 ? argv : argv.slice(0, end)).includes("--json");
}

/** Print a thrown error as one clear message, or under `--json` as one `{"error": …}` on stdout; its exit status. */
export function reportError(error: unknown, io: Io, opts: { debug?: boolean; json: boolean }): number {
  if (opts.debug && error instanceof Error && !(error instanceof CommanderError)) io.err(error.stack ?? String(error));
  if (error instanceof CommanderError) return reportUsage(error, io, opts.json);
  if (error instanceof ExitError) return error.exitCode;
  if (error instanceof OrgError) {
    if (opts.json) io.out(formatJson(describeErrorJson(error)));
    else if (error instanceof ConfigError) for (const problem of error.problems) io.err(problem);
    else io.err(`org: ${error.message}`);
    return decideExitCode(error);
  }
  const stack = (error as Error)?.stack ?? String(error);
  if (opts.json) io.out(formatJson(buildErrorJson("internal", (error as Error)?.message ?? String(error), BUG)));
  io.err(`org: internal error: ${stack}`);
  io.err(BUG);
  return EXIT.internal;
}

// Commander printed its own message already, unless --json silenced it; help and --version end here with 0.
function reportUsage(error: CommanderError, io: Io, json: boolean): number {
  if (error.exitCode === 0) return EXIT.ok;
  // Commander's message may end in a "(Did you mean …?)" line: that is the fix.
  const [what = "", ...hint] = error.message.replace(/^error: /, "").split("\n");
  const message = error.code === "commander.help" ? "no command given" : what;
  const suggestion = hint.join(" ").replace(/^\((.*)\)$/, "$1").trim();
  if (json) io.out(formatJson(buildErrorJson("usage", message, suggestion || HELP_FIX)));
  return EXIT.usage;
}
