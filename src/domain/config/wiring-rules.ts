import { suggestFix } from "./did-you-mean.js";
import type { Problem } from "./locate.js";
import { formatPath } from "./messages.js";
import { asMap, type Raw } from "./raw.js";
import { explainUnsafeName } from "./names.js";
import { SAFE_NAME } from "./schema.js";

/** reports_to and talks_to name roles that exist, by safe names, and reports_to never loops back. */
export function checkWiring(raw: Raw): Problem[] {
  const roles = asMap(raw.roles);
  if (!roles) return [];
  const names = Object.keys(roles);
  const problems: Problem[] = [];
  for (const [role, value] of Object.entries(roles)) {
    const spec = asMap(value);
    if (!spec) continue;
    if (typeof spec.reports_to === "string") problems.push(...checkReference(
      ["roles", role, "reports_to"],
      spec.reports_to,
      names,
    ));
    const talksTo = Array.isArray(spec.talks_to) ? spec.talks_to : [];
    talksTo.forEach((target, index) => {
      if (typeof target === "string") problems.push(...checkReference(
        ["roles", role, "talks_to", index],
        target,
        names,
      ));
    });
  }
  return problems.concat(findCycles(roles));
}

function checkReference(path: (string | number)[], target: string, roles: string[]): Problem[] {
  const where = formatPath(path);
  const listed = `name one of the roles: ${roles.join(", ")}`;
  if (!SAFE_NAME.test(target)) return [{ path, message: explainUnsafeName(where, target).message, fix: listed }];
  if (roles.includes(target)) return [];
  return [{ path, message: `${where} names "${target}", which is not a role`, fix: suggestFix(target, roles, listed) }];
}

// Each cycle is reported once, at the first of its roles in org.yaml order.
function findCycles(roles: Raw): Problem[] {
  const reportsTo = (role: string) => {
    const target = asMap(roles[role])?.reports_to;
    return typeof target === "string" && target in roles ? target : undefined;
  };
  const reported = new Set<string>();
  const problems: Problem[] = [];
  for (const start of Object.keys(roles)) {
    const chain = [start];
    for (let next = reportsTo(start); next !== undefined && !reported.has(start); next = reportsTo(next)) {
      if (next === start) {
        chain.forEach((role) => reported.add(role));
        problems.push({
          path: ["roles", start, "reports_to"],
          message: `${formatPath(["roles", start, "reports_to"])} makes a cycle: ${[...chain, start].join(" → ")}`,
          fix: "remove reports_to from one of these roles; the top of the org reports to no one",
        });
        break;
      }
      if (chain.includes(next)) break;
      chain.push(next);
    }
  }
  return problems;
}
