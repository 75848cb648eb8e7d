import { ConfigError, OrgError } from "../errors.js";
import { parseProblem, splitFix, type ProblemJson } from "./problem-json.js";

/** What every command prints under `--json` when it fails: one object, on stdout. */
export interface ErrorJson {
  error: {
    code: string;
    message: string;
    fix: string | null;
    /** A config error: each problem of org.yaml, as `org validate --json` gives them. */
    problems?: ProblemJson[];
  };
}

/** A known error as JSON: an OrgError's own code, its message and fix split at the dash. */
export function describeErrorJson(error: OrgError): ErrorJson {
  if (error instanceof ConfigError) {
    const problems = error.problems.map(parseProblem);
    const count = `${problems.length} problem${problems.length === 1 ? "" : "s"}`;
    const message = `${problems[0]?.file || "org.yaml"} has ${count}`;
    return { error: { code: error.code, message, fix: "fix each problem as it says", problems } };
  }
  const { what, fix } = splitFix(error.message);
  return { error: { code: error.code, message: what, fix } };
}

/** An error with a code of our choosing: a usage error from the argument parser, a bug. */
export function buildErrorJson(code: string, message: string, fix: string | null): ErrorJson {
  return { error: { code, message, fix } };
}
