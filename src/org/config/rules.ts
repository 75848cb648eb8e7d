import { isAbsolute } from "node:path";
import type { Problem } from "./locate.js";
import { formatPath } from "./messages.js";
import { SAFE_NAME, SAFE_NAME_RULE } from "./schema.js";
import { checkSlurm } from "./slurm-rules.js";
import { checkProcessStrings } from "./process-rules.js";
import { checkPricing } from "./pricing-rules.js";
import { checkRoleRuntimes, checkRuntimes } from "./runtime-rules.js";
import { checkWiring } from "./wiring-rules.js";
import { checkProtocolRoles } from "../contracts/config-rules.js";
import { checkGates } from "./gate-rules.js";
import { checkJudge } from "./judge-rules.js";

// Rules read the raw YAML value, not zod's output, so they run (and report) even when the schema fails.
export type Raw = Record<string, unknown>;
type Rule = (raw: Raw) => Problem[];

/** Every rule that needs nothing but the document. */
export const RULES: Rule[] = [
  checkNames, checkRoles, checkRoleRuntimes, checkRuntimes, checkPatterns, checkPaths, checkWiring, checkSlurm,
  checkProtocolRoles, checkProcessStrings, checkPricing, checkGates, checkJudge,
];

/** A map-shaped value as a record; anything else is the schema's problem, not a rule's. */
export function asMap(value: unknown): Raw | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Raw) : undefined;
}

function checkNames(raw: Raw): Problem[] {
  const unsafe = typeof raw.name === "string" && !SAFE_NAME.test(raw.name) ? [{ path: ["name"], ...explainUnsafeName("name", raw.name) }] : [];
  const sections = [["roles", "role name"], ["runtimes", "runtime name"]] as const;
  return unsafe.concat(
    sections.flatMap(([section, what]) =>
      Object.keys(asMap(raw[section]) ?? {})
        .filter((key) => !SAFE_NAME.test(key))
        .map((key) => ({ path: [section, key], at: "key" as const, ...explainUnsafeName(what, key) })),
    ),
  );
}

function checkRoles(raw: Raw): Problem[] {
  const roles = asMap(raw.roles);
  if (!roles || Object.keys(roles).length > 0) return [];
  return [{ path: ["roles"], message: "roles defines no role", fix: "define at least one role, e.g. researcher: {prompt: prompts/researcher.md, runtime: claude}" }];
}

function checkPatterns(raw: Raw): Problem[] {
  const verify = asMap(raw.verify);
  const patterns = [
    { path: ["verify", "metric", "pattern"], value: asMap(verify?.metric)?.pattern, example: "'^val_bpb:\\s*([0-9.]+)'" },
    { path: ["verify", "memory", "pattern"], value: asMap(verify?.memory)?.pattern, example: "'^peak_vram_mb:\\s*([0-9.]+)'" },
  ];
  return patterns.flatMap(({ path, value, example }): Problem[] => {
    if (typeof value !== "string" || value === "") return [];
    const where = formatPath(path);
    let groups: number;
    try {
      // An alternative that always matches the empty string reveals the group count without real input.
      groups = new RegExp(`${value}|`).exec("")!.length - 1;
    } catch (error) {
      const reason = (error as Error).message.split(": ").pop() ?? "";
      return [{ path, message: `${where} is not a valid regular expression: ${reason.charAt(0).toLowerCase()}${reason.slice(1)}`, fix: `fix the pattern, e.g. ${example}` }];
    }
    if (groups > 0) return [];
    return [{ path, message: `${where} has no capture group, so no number can be read from the log`, fix: `put the number in parentheses, e.g. ${example}` }];
  });
}

function checkPaths(raw: Raw): Problem[] {
  const entries: { path: (string | number)[]; value: unknown }[] = [];
  (Array.isArray(raw.share) ? raw.share : []).forEach((entry, index) => {
    if (typeof entry === "string") entries.push({ path: ["share", index], value: entry });
    else entries.push({ path: ["share", index, "path"], value: asMap(entry)?.path });
  });
  const verify = asMap(raw.verify);
  (Array.isArray(verify?.protected) ? verify.protected : []).forEach((value, index) => entries.push({ path: ["verify", "protected", index], value }));
  return entries.flatMap(({ path, value }): Problem[] => {
    if (typeof value !== "string") return [];
    const where = formatPath(path);
    const fix = "write a path relative to the repo that stays inside it";
    if (isAbsolute(value) || value.startsWith("~")) return [{ path, message: `${where} "${value}" is an absolute path; it must stay inside the repo`, fix }];
    if (value.split(/[\\/]/).includes("..")) return [{ path, message: `${where} "${value}" leaves the repo through ".."`, fix }];
    return [];
  });
}

/** Why `name` is not a safe name (which characters), and a safe spelling of it. */
export function explainUnsafeName(what: string, name: string): { message: string; fix: string } {
  const bad = [...new Set([...name].filter((char) => !/[A-Za-z0-9_-]/.test(char)))];
  const shown = bad.map((char) => (char === " " ? "a space" : /[\x00-\x1f\x7f]/.test(char) ? JSON.stringify(char) : `"${char}"`));
  const reason =
    name.length === 0 ? "is empty"
    : bad.length > 0 ? `contains ${shown.join(", ")}`
    : !/^[A-Za-z0-9]/.test(name) ? `starts with "${name[0]}"`
    : `is ${name.length} characters long`;
  const safe = name.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^[-_]+/, "").slice(0, 40).replace(/-+$/, "");
  const suggestion = safe && safe !== name ? `, e.g. "${safe}"` : "";
  return { message: `${what} "${name}" ${reason}`, fix: `use ${SAFE_NAME_RULE}${suggestion}` };
}
