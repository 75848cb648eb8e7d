import { ConfigError, ExitError, OrgError } from "../errors.js";

/** Every org command's exit status, one table; docs/scripting.md documents it. */
export const EXIT = {
  /** It did what was asked; a judged experiment exits 0 whatever its verdict. */
  ok: 0,
  /** It could not, or it found a problem: bad org.yaml, a failed doctor check, no org state, an experiment not run. */
  failure: 1,
  /** The command line is wrong: an unknown command or option, a missing argument, a bad value. */
  usage: 2,
  /** A bug in org (sysexits' EX_SOFTWARE). */
  internal: 70,
} as const;

/** The exit status of a thrown error: OrgError's "usage" code is a usage error, every other known one a failure. */
export function decideExitCode(error: unknown): number {
  if (error instanceof ExitError) return error.exitCode;
  if (error instanceof ConfigError) return EXIT.failure;
  if (error instanceof OrgError) return error.code === "usage" ? EXIT.usage : EXIT.failure;
  return EXIT.internal;
}
