import type { Problem } from "./locate.js";
import { asMap, type Raw } from "./raw.js";

const LATER = "set a later time, or a duration from org up such as 48h";

/**
 * The stop section beyond types: a target needs a metric to compare, a cost limit needs prices, an ISO deadline must be
 * a real time, and, when `now` is given (`org validate`, `org up`), not one already past; a daemon never refuses its
 * own org.yaml at the deadline.
 */
export function checkStop(raw: Raw, now?: Date): Problem[] {
  const stop = asMap(raw.stop);
  if (!stop) return [];
  const problems: Problem[] = [];
  if (typeof stop.target === "number" && !asMap(raw.verify)) {
    problems.push({
      path: ["stop", "target"],
      message: "stop.target needs a metric to compare with, but org.yaml has no verify section",
      fix: "add a verify section with a metric, or remove stop.target",
    });
  }
  // With no price every cost is unknown, so the limit could never be reached.
  if (typeof stop.max_cost === "number" && stop.max_cost > 0 && !asMap(raw.pricing)) {
    // A judge's runs are dollars too: the message says whose the limit counts.
    const whose = asMap(asMap(raw.verify)?.judge) ? " (the agents' and the judge's)" : "";
    const message = `stop.max_cost counts dollars${whose}, but org.yaml prices no model`;
    problems.push({
      path: ["stop", "max_cost"],
      message,
      fix: 'add a pricing section, e.g. pricing: {"claude-sonnet-*": {input: 3, output: 15}}, or remove stop.max_cost',
    });
  }
  const deadline = stop.deadline;
  if (typeof deadline !== "string" || !/^\d{4}-/.test(deadline)) return problems;
  const at = Date.parse(deadline);
  if (Number.isNaN(at)) problems.push({
    path: ["stop", "deadline"],
    message: `stop.deadline "${deadline}" is not a real time`,
    fix: "write an ISO time such as 2030-01-31T18:00:00Z",
  });
  else if (now && at <= now.getTime()) problems.push({
    path: ["stop", "deadline"],
    message: `stop.deadline "${deadline}" is in the past (now ${now.toISOString()})`,
    fix: LATER,
  });
  return problems;
}
