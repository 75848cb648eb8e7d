import { suggestFix } from "./did-you-mean.js";
import type { Problem } from "./locate.js";
import { formatPath } from "./messages.js";
import { asMap, type Raw } from "./raw.js";
import { explainUnsafeName } from "./names.js";
import { SAFE_NAME } from "./schema.js";

/** contracts.generator/evaluator and standup.to name roles of org.yaml; a contract needs two different roles. */
export function checkProtocolRoles(raw: Raw): Problem[] {
  const roles = Object.keys(asMap(raw.roles) ?? {});
  if (roles.length === 0) return [];
  const problems: Problem[] = [];
  const contracts = asMap(raw.contracts);
  // The defaults name roles too: a contracts section left empty still needs a generator and an evaluator role.
  const generator = contracts ? (contracts.generator ?? "generator") : undefined;
  const evaluator = contracts ? (contracts.evaluator ?? "evaluator") : undefined;
  for (const [key, value] of [["generator", generator], ["evaluator", evaluator]] as const) {
    if (typeof value !== "string") continue;
    problems.push(...checkRole(["contracts", key], value, roles, contracts?.[key] === undefined));
  }
  if (typeof generator === "string" && generator === evaluator) {
    const message = `contracts.evaluator is "${evaluator}", the generator's role too`;
    const fix = "the evaluator must be another role: no one grades their own work";
    problems.push({ path: ["contracts", "evaluator"], message, fix });
  }
  const standup = asMap(raw.standup);
  if (standup) {
    const to = standup.to ?? "chief";
    if (typeof to === "string") problems.push(...checkRole(["standup", "to"], to, roles, standup.to === undefined));
  }
  return problems;
}

function checkRole(path: (string | number)[], target: string, roles: string[], defaulted: boolean): Problem[] {
  const where = formatPath(path);
  const listed = `name one of the roles: ${roles.join(", ")}`;
  if (!SAFE_NAME.test(target)) return [{ path, message: explainUnsafeName(where, target).message, fix: listed }];
  if (roles.includes(target)) return [];
  if (defaulted) {
    const message = `${where} defaults to "${target}", which is not a role`;
    return [{ path: path.slice(0, -1), message, fix: `set ${path.at(-1)}: to a role — ${listed}` }];
  }
  return [{ path, message: `${where} names "${target}", which is not a role`, fix: suggestFix(target, roles, listed) }];
}
