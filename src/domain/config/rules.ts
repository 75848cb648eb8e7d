import { isAbsolute } from "node:path";
import type { Problem } from "./locate.js";
import { formatPath } from "./messages.js";
import { explainUnsafeName, SAFE_NAME } from "./names.js";
import { asMap, type Raw } from "./raw.js";
import { checkSlurm } from "./slurm-rules.js";
import { checkProcessStrings } from "./process-rules.js";
import { checkPricing } from "./pricing-rules.js";
import { checkRoleRuntimes, checkRuntimes } from "./runtime-rules.js";
import { checkWiring } from "./wiring-rules.js";
import { checkProtocolRoles } from "./contract-rules.js";
import { checkGates } from "./gate-rules.js";
import { checkJudge } from "./judge-rules.js";

type Rule = (raw: Raw) => Problem[];

/** Every rule that needs nothing but the document. */
export const RULES: Rule[] = [
  checkNames, checkRoles, checkRoleRuntimes, checkRuntimes, checkPatterns, checkPaths, checkWiring, checkSlurm,
  checkProtocolRoles, checkProcessStrings, checkPricing, checkGates, checkJudge,
];

function checkNames(raw: Raw): Problem[] {
  const badName = typeof raw.name === "string" && !SAFE_NAME.test(raw.name) ? raw.name : undefined;
  const unsafe = badName === undefined ? [] : [{ path: ["name"], ...explainUnsafeName("name", badName) }];
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
  const fix = "define at least one role, e.g. researcher: {prompt: prompts/researcher.md, runtime: claude}";
  return [{ path: ["roles"], message: "roles defines no role", fix }];
}

function checkPatterns(raw: Raw): Problem[] {
  const verify = asMap(raw.verify);
  const patterns = [
    {
      path: ["verify", "metric", "pattern"], value: asMap(verify?.metric)?.pattern,
      example: "'^val_bpb:\\s*([0-9.]+)'",
    },
    {
      path: ["verify", "memory", "pattern"], value: asMap(verify?.memory)?.pattern,
      example: "'^peak_vram_mb:\\s*([0-9.]+)'",
    },
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
      const why = `${reason.charAt(0).toLowerCase()}${reason.slice(1)}`;
      const message = `${where} is not a valid regular expression: ${why}`;
      return [{ path, message, fix: `fix the pattern, e.g. ${example}` }];
    }
    if (groups > 0) return [];
    const message = `${where} has no capture group, so no number can be read from the log`;
    return [{ path, message, fix: `put the number in parentheses, e.g. ${example}` }];
  });
}

function checkPaths(raw: Raw): Problem[] {
  const entries: { path: (string | number)[]; value: unknown }[] = [];
  (Array.isArray(raw.share) ? raw.share : []).forEach((entry, index) => {
    if (typeof entry === "string") entries.push({ path: ["share", index], value: entry });
    else entries.push({ path: ["share", index, "path"], value: asMap(entry)?.path });
  });
  const verify = asMap(raw.verify);
  const protectedPaths: unknown[] = Array.isArray(verify?.protected) ? verify.protected : [];
  protectedPaths.forEach((value, index) => entries.push({ path: ["verify", "protected", index], value }));
  return entries.flatMap(({ path, value }): Problem[] => {
    if (typeof value !== "string") return [];
    const where = formatPath(path);
    const fix = "write a path relative to the repo that stays inside it";
    if (isAbsolute(value) || value.startsWith("~")) {
      return [{ path, message: `${where} "${value}" is an absolute path; it must stay inside the repo`, fix }];
    }
    if (value.split(/[\\/]/).includes("..")) {
      return [{ path, message: `${where} "${value}" leaves the repo through ".."`, fix }];
    }
    return [];
  });
}
