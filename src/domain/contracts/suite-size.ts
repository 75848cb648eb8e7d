// A contract whose checklist is the browser suite must be big enough to keep its evaluator honest: a warning, since
// a person may choose a smaller one on purpose.
import type { OrgConfig, Problem } from "../config/index.js";
import { BROWSER_RUNNER, SUITE_MIN_ASSERTIONS } from "../../roles/index.js";

/** Warns when contracts.min_assertions lets a contract of fewer than 20 assertions be agreed as the browser suite. */
export function warnSuiteSize(config: OrgConfig): Problem[] {
  const settings = config.contracts;
  const gate = config.verify?.gates?.find((entry) => entry.command.some((arg) => isBrowserRunner(arg)));
  if (!settings || !gate || settings.min_assertions >= SUITE_MIN_ASSERTIONS) return [];
  const least = settings.min_assertions;
  return [{
    path: ["contracts", "min_assertions"],
    message: `contracts.min_assertions is ${least}: a contract of ${least} assertion${least === 1 ? "" : "s"} can be `
      + `agreed, and its checklist is the browser suite (gate ${gate.name})`,
    fix: `raise it to ${SUITE_MIN_ASSERTIONS} or more: about 27 testable assertions suit a small app, `
      + "and 10 are too few to keep an evaluator honest",
  }];
}

function isBrowserRunner(arg: string): boolean {
  return arg === BROWSER_RUNNER || arg.endsWith(`/${BROWSER_RUNNER}`);
}
