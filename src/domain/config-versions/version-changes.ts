// What changed from one program to the next, in the words log.md and `org program show` use.
import type { OrgConfig } from "../config/index.js";
import { isSameValue as same, normalizePrompt, type ProgramContent } from "./version.js";

/** One line per change, roles first, then runtimes, prompts and the other sections; a first program lists its roles. */
export function describeProgramChanges(before: ProgramContent | undefined, after: ProgramContent): string[] {
  if (!before) return [`first version: ${describeRoles(after.config)}`];
  const lines = [
    ...compareRoles(before.config, after.config),
    ...compareRuntimes(before.config, after.config),
    ...comparePrompts(before.prompts, after.prompts),
  ];
  const sections = [...new Set([...Object.keys(before.config), ...Object.keys(after.config)])].filter((key) =>
    key !== "roles" && key !== "runtimes")
    .sort();
  for (const key of sections) {
    if (same(before.config[key as keyof OrgConfig], after.config[key as keyof OrgConfig])) continue;
    // The verifier judges one way for the life of an org: the version counts it now, the runs from the next `org up`.
    lines.push(key === "verify"
      ? "~ verify changed (runs are judged by it from the next `org up`)"
      : `~ ${key} changed`);
  }
  return lines.length > 0 ? lines : ["= nothing that counts: whitespace or comments only"];
}

/** `researcher ×3 (hill), critic ×1 (claude)`. */
export function describeRoles(config: OrgConfig): string {
  return Object.entries(config.roles).map(([role, spec]) => `${role} ×${spec.count} (${spec.runtime})`).join(", ");
}

/** Who made the change, from the `by` a reload or `org up` records. */
export function describeAuthor(by: string): string {
  if (by === "daemon") return "a person's save, applied by hot reload";
  if (by.startsWith("meta edit by ")) return `the meta role's proposal (${by.slice("meta edit by ".length)})`;
  if (by.startsWith("org ")) return `\`${by}\``;
  return by;
}

function compareRoles(before: OrgConfig, after: OrgConfig): string[] {
  const lines: string[] = [];
  for (const [role, spec] of Object.entries(after.roles)) {
    const was = before.roles[role];
    if (!was) {
      lines.push(`+ role ${role} ×${spec.count} (runtime ${spec.runtime}, prompt ${spec.prompt})`);
      continue;
    }
    if (was.count !== spec.count) lines.push(`~ ${role} count ${was.count} → ${spec.count}`);
    if (was.runtime !== spec.runtime) lines.push(`~ ${role} runtime ${was.runtime} → ${spec.runtime}`);
    if (was.prompt !== spec.prompt) lines.push(`~ ${role} prompt ${was.prompt} → ${spec.prompt}`);
    const other = Object.keys({ ...was, ...spec })
      .filter((key) =>
        !["count", "runtime", "prompt"].includes(key)
          && !same(was[key as keyof typeof was], spec[key as keyof typeof spec]));
    if (other.length > 0) lines.push(`~ ${role} ${other.sort().join(", ")} changed`);
  }
  for (const role of Object.keys(before.roles)) {
    if (!after.roles[role]) lines.push(`- role ${role} (was ×${before.roles[role]!.count})`);
  }
  return lines;
}

function compareRuntimes(before: OrgConfig, after: OrgConfig): string[] {
  const names = [...new Set([...Object.keys(before.runtimes), ...Object.keys(after.runtimes)])].sort();
  return names.flatMap((name) => {
    const [was, now] = [before.runtimes[name], after.runtimes[name]];
    if (!was) return [`+ runtime ${name}`];
    if (!now) return [`- runtime ${name}`];
    return same(was, now) ? [] : [`~ runtime ${name} changed`];
  });
}

function comparePrompts(before: Record<string, string>, after: Record<string, string>): string[] {
  const paths = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return paths.flatMap((path) => {
    const [was, now] = [before[path], after[path]];
    if (was === undefined) return [`+ prompt ${path}`];
    if (now === undefined) return [`- prompt ${path}`];
    return normalizePrompt(was) === normalizePrompt(now) ? [] : [`~ prompt ${path} changed`];
  });
}
