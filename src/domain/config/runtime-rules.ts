import { findClosest, joinOr, suggestFix } from "./did-you-mean.js";
import type { Problem } from "./locate.js";
import { formatPath } from "./messages.js";
import { AGENT_PRESETS, isAgentPreset } from "./normalize.js";
import { asMap, type Raw } from "./raw.js";

export const PLACEHOLDERS = [
  "prompt_file", "kickoff", "agent", "role", "worktree", "gpu", "state", "inbox", "session_id", "unattended",
];

/** Each role's runtime is defined under runtimes or names a preset, which normalizing turns into an entry. */
export function checkRoleRuntimes(raw: Raw): Problem[] {
  const runtimes = raw.runtimes === undefined ? {} : asMap(raw.runtimes);
  if (!runtimes) return [];
  const names = Object.keys(runtimes);
  return Object.entries(asMap(raw.roles) ?? {}).flatMap(([role, spec]): Problem[] => {
    const runtime = asMap(spec)?.runtime;
    if (typeof runtime !== "string" || runtime === "") return [];
    if (Object.hasOwn(runtimes, runtime) || isAgentPreset(runtime)) return [];
    const path = ["roles", role, "runtime"];
    return [{
      path,
      message: `${formatPath(path)} names "${runtime}", which is neither defined under runtimes nor a preset`,
      fix: suggestRuntime(runtime, names),
    }];
  });
}

/** The nearest defined runtime or preset; else every choice, and an example that starts the program asked for. */
function suggestRuntime(runtime: string, names: string[]): string {
  const closest = findClosest(runtime, [...names, ...AGENT_PRESETS]);
  if (closest !== undefined) return `did you mean "${closest}"${names.includes(closest) ? "" : " (a preset)"}?`;
  const defined = names.length > 0 ? ` or a defined runtime (${names.join(", ")})` : "";
  return `name a preset (${joinOr(AGENT_PRESETS)})${defined}, `
    + `or define it under runtimes, e.g. runtimes: {${runtime}: {${exampleCommand(runtime)}}}`;
}

// An example must start the program the user named: showing another CLI's flags is how wrong configs get copied.
function exampleCommand(program: string): string {
  return `command: [${program}, "{kickoff}"]`;
}

export function checkRuntimes(raw: Raw): Problem[] {
  return Object.entries(asMap(raw.runtimes) ?? {}).flatMap(([name, value]): Problem[] => {
    const runtime = asMap(value);
    if (!runtime) return [];
    const where = formatPath(["runtimes", name]);
    const problems: Problem[] = [];
    // A misspelled "comand" already gets a did-you-mean; "neither" on top would be noise.
    const misspelled = Object.keys(runtime)
      .some((key) => findClosest(key, ["command", "builtin", "preset"]) !== undefined);
    // The generic preset knows no program: it needs a command like no preset at all.
    const preset = runtime.preset === "generic" ? undefined : runtime.preset;
    if (runtime.command === undefined && runtime.builtin === undefined && preset === undefined && !misspelled) {
      const presets = isAgentPreset(name)
        ? `preset: ${name}`
        : `preset: ${AGENT_PRESETS[0]} (or ${AGENT_PRESETS.slice(1).join(", ")})`;
      problems.push({
        path: ["runtimes", name],
        message: `${where} has neither command, preset nor builtin`,
        fix: `add ${presets}, ${exampleCommand(name)}, or builtin: hillclimb`,
      });
    }
    if (runtime.preset !== undefined && runtime.builtin !== undefined) {
      problems.push({
        path: ["runtimes", name, "builtin"],
        at: "key",
        message: `${where} has both preset and builtin`,
        fix: "keep one: preset starts an agent CLI, builtin runs one shipped with org",
      });
    }
    if (runtime.command !== undefined && runtime.builtin !== undefined) {
      problems.push({
        path: ["runtimes", name, "builtin"],
        at: "key",
        message: `${where} has both command and builtin`,
        fix: "keep one: command starts your program, builtin runs one shipped with org",
      });
    }
    const argvs = (["command", "resume"] as const).flatMap((key) =>
      (Array.isArray(runtime[key]) ? [[key, runtime[key] as unknown[]] as const] : []));
    argvs.forEach(([key, argv]) => argv.forEach((element, index) => {
      const placeholder = typeof element === "string" ? /^\{([A-Za-z_][\w-]*)\}$/.exec(element)?.[1] : undefined;
      if (placeholder === undefined || PLACEHOLDERS.includes(placeholder)) return;
      const known = PLACEHOLDERS.map((known) => `{${known}}`);
      const fix = suggestFix(String(element), known, `use one of ${known.join(" ")}, or write it without braces`);
      problems.push({
        path: ["runtimes", name, key, index],
        message: `${where}.${key}[${index}] is an unknown placeholder "${String(element)}"`,
        fix,
      });
    }));
    return problems;
  });
}
