// `org up --ab other.yaml`: program B's roles join program A's as one org, on A's repo, base and verifier.
import { posix, relative, resolve, sep } from "node:path";
import { formatProblems, type LoadedConfig, type OrgConfig, type Problem } from "../config/index.js";
import { listAgents } from "../lifecycle/plan-agents.js";
import { B_PREFIX } from "./ab-run-record.js";
import { isSameValue } from "./version.js";

export type AbMerge = { ok: true; loaded: LoadedConfig; a: string[]; b: string[] } | { ok: false; problems: string[] };

/**
 * One org running both programs: A's settings, A's roles, B's roles and runtimes under `b-`
 * names; refused where B would measure something else.
 */
export function mergeAbPrograms(a: LoadedConfig, b: LoadedConfig): AbMerge {
  const problems = [...checkSameTask(a, b), ...checkNames(a.config, b.config)];
  if (problems.length > 0) return { ok: false, problems: formatProblems(b.file, b.text, problems) };
  const runtimes = renameRuntimes(a.config, b.config);
  const roles = Object.fromEntries(Object.entries(b.config.roles).map(([role, spec]) => [prefix(role), {
    ...spec,
    // Read from A's folder from now on: B's prompt keeps pointing at its own file.
    prompt: relative(a.dir, resolve(b.dir, spec.prompt)).split(sep).join(posix.sep),
    runtime: runtimes.get(spec.runtime) ?? spec.runtime,
    ...(spec.reports_to ? { reports_to: prefix(spec.reports_to) } : {}),
    talks_to: spec.talks_to.map(prefix),
  }]));
  // B's runtimes A lacks join under their own names, and differing ones under b- names; a shared one is A's already.
  const added = Object.fromEntries([...runtimes].flatMap(([name, renamed]) =>
    (renamed === name && name in a.config.runtimes ? [] : [[renamed, b.config.runtimes[name]!]])));
  const config: OrgConfig = {
    ...a.config,
    runtimes: { ...a.config.runtimes, ...added },
    roles: { ...a.config.roles, ...roles },
  };
  const bRoles = new Set(Object.keys(roles));
  const agents = listAgents(config);
  return {
    ok: true,
    loaded: { ...a, config, ab: { b: agents.filter((agent) => bRoles.has(agent.role)).map((agent) => agent.name) } },
    a: agents.filter((agent) => !bRoles.has(agent.role)).map((agent) => agent.name),
    b: agents.filter((agent) => bRoles.has(agent.role)).map((agent) => agent.name),
  };
}

function prefix(role: string): string {
  return `${B_PREFIX}${role}`;
}

// Both halves are judged by one verifier on one repo from one base: anything else would compare two different tasks.
function checkSameTask(a: LoadedConfig, b: LoadedConfig): Problem[] {
  const fix = `an A/B run compares two programs on the same task — make it the same as ${a.file}'s, `
    + `or run the other org on its own`;
  const problems: Problem[] = [];
  if (a.repoDir !== b.repoDir) problems.push({
    path: ["repo"],
    message: `names the repo ${b.repoDir}, but ${a.file} runs ${a.repoDir}`,
    fix,
  });
  else if (a.baseCommit !== b.baseCommit) problems.push({
    path: ["base"],
    message: `base ${b.config.base} is ${b.baseCommit.slice(0, 7)}, `
      + `but ${a.file}'s base ${a.config.base} is ${a.baseCommit.slice(0, 7)}`,
    fix,
  });
  const [va, vb] = [a.config.verify, b.config.verify];
  if (!va || !vb) {
    if (va || vb) problems.push({
      path: vb ? ["verify"] : [],
      message: vb ? `has a verify section, but ${a.file} has none` : `has no verify section, but ${a.file} has one`,
      fix,
    });
    return problems;
  }
  for (const key of [...new Set([...Object.keys(va), ...Object.keys(vb)])] as (keyof typeof va)[]) {
    if (isSameValue(va[key], vb[key])) continue;
    const what = key === "metric" ? "the metric" : key === "command" ? "the verify command" : `verify.${key}`;
    problems.push({
      path: ["verify", key],
      message: `${what} differs from ${a.file}'s (${JSON.stringify(vb[key])} here, ${JSON.stringify(va[key])} there): `
        + `one verifier judges both halves`,
      fix,
    });
  }
  return problems;
}

// A's own `b-` roles would be taken for B's.
function checkNames(a: OrgConfig, b: OrgConfig): Problem[] {
  return Object.keys(b.roles).flatMap((role) => (prefix(role) in a.roles
    ? [{
      path: ["roles", role],
      message: `role ${role} becomes ${prefix(role)} in the A/B run, a role the current org.yaml already has`,
      fix: `rename ${prefix(role)} in org.yaml or ${role} here`,
      at: "key" as const,
    }]
    : []));
}

// B's runtime of the same name as one of A's is shared only when it is the same; otherwise it runs as b-<name>.
function renameRuntimes(a: OrgConfig, b: OrgConfig): Map<string, string> {
  return new Map(Object.keys(b.runtimes)
    .map((name) =>
      [name, !(name in a.runtimes) || isSameValue(a.runtimes[name], b.runtimes[name]) ? name : prefix(name)]));
}
