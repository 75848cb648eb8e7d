/** A user-facing failure: printed as its message, never as a stack trace. */
export class OrgError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = "OrgError";
  }
}

/** org.yaml problems, already formatted as `file:line:col: what — how to fix`. */
export class ConfigError extends OrgError {
  constructor(readonly problems: string[]) {
    super(problems.join("\n"), "config");
    this.name = "ConfigError";
  }
}

/** Thrown after the problem was printed, to exit with a status and nothing more. */
export class ExitError extends Error {
  constructor(readonly exitCode: number) {
    super(`exit ${exitCode}`);
    this.name = "ExitError";
  }
}
