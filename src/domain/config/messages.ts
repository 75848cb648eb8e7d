import * as z from "zod";
import { findClosest, joinOr, suggestFix } from "./did-you-mean.js";
import { findSchema, knownKeys, toPath, valueAt, type FoundSchema, type Problem } from "./locate.js";
import { SAFE_NAME } from "./schema.js";

type Issue = z.core.$ZodIssue;
type Path = (string | number)[];

/** Human problems for zod's issues: `<path> must be <expected>, got <value>` plus a fix. */
export function describeIssues(issues: readonly Issue[], root: unknown): Problem[] {
  const suggested = new Set<string>();
  for (const issue of issues) {
    if (issue.code !== "unrecognized_keys") continue;
    const known = knownKeys(findSchema(toPath(issue.path)));
    for (const key of issue.keys) suggested.add(JSON.stringify([...toPath(issue.path), findClosest(key, known)]));
  }
  // A misspelled key already says "did you mean roles?"; "missing roles" on top is noise.
  const noise = (issue: Issue) =>
    issue.code === "invalid_type" && valueAt(root, toPath(issue.path)) === undefined
      && suggested.has(JSON.stringify(toPath(issue.path)));
  return issues.filter((issue) => !noise(issue)).flatMap((issue) => describeIssue(issue, root));
}

function describeIssue(issue: Issue, root: unknown): Problem[] {
  const path = toPath(issue.path);
  const value = valueAt(root, path);
  const found = findSchema(path);
  const where = formatPath(path);
  const got = `got ${describeValue(value)}`;
  switch (issue.code) {
    case "unrecognized_keys": {
      const known = knownKeys(found);
      const fallback = `remove it; the keys allowed${where ? ` in ${where}` : ""} are ${known.join(", ")}`;
      return issue.keys.map((key) =>
        ({
          path: [...path, key],
          at: "key" as const,
          message: `unknown key "${key}"${where ? ` in ${where}` : ""}`,
          fix: suggestFix(key, known, fallback),
        }));
    }
    case "invalid_union": {
      // Describe the branch whose shape matched (its problems are deeper), else the union as a whole.
      const matched = issue.errors.find((branch) =>
        branch.length > 0 && branch.every((inner) => inner.path.length > 0 || inner.code === "unrecognized_keys"));
      if (matched) return describeIssues(
        matched.map((inner) => ({ ...inner, path: [...path, ...inner.path] }) as Issue),
        root,
      );
      return [{
        path,
        message: `${where} must be ${found?.customError ? issue.message : expectPhrase(found)}, ${got}`,
        fix: suggestValue(found, value),
      }];
    }
    case "invalid_type":
      if (path.length === 0) return [describeRoot(value)];
      if (value === undefined) return [describeMissing(path, found)];
      if (value === null) return [{ path, message: `${where} has no value`, fix: suggestValue(found, value) }];
      return [{ path, message: `${where} must be ${expectPhrase(found)}, ${got}`, fix: suggestValue(found, value) }];
    case "too_small":
    case "too_big":
      return [describeBound(issue, path, value, found)];
    case "invalid_value": {
      const options = issue.values.map(String);
      const expected = options.length === 1 ? `"${options[0]}"` : `one of ${options.join(", ")}`;
      return [{
        path,
        message: `${where} must be ${expected}, ${got}`,
        fix: suggestFix(String(value), options, `write ${joinOr(options)}`),
      }];
    }
    case "invalid_format": {
      // Names are checked by rules.ts, which says which characters are wrong.
      if (issue.format === "regex" && issue.pattern === String(SAFE_NAME)) return [];
      // Custom messages are noun phrases; zod's own ("Invalid string: …") are not.
      const wanted = issue.message.startsWith("Invalid")
        ? `text matching ${issue.pattern ?? issue.format}`
        : issue.message;
      return [{ path, message: `${where} must be ${wanted}, ${got}`, fix: suggestValue(found, value) }];
    }
    default:
      return [{
        path,
        message: `${where}: ${issue.message.toLowerCase()}`,
        fix: `see the description of ${where} in org.schema.json`,
      }];
  }
}

function describeRoot(value: unknown): Problem {
  if (value === null || value === undefined) return {
    path: [],
    message: "the file is empty",
    fix: "run `org init` for a commented starter, or define roles: with at least one role",
  };
  return {
    path: [],
    message: `the file must be a map of settings such as name, repo and roles, got ${describeValue(value)}`,
    fix: "write one key: value per line, starting with roles:",
  };
}

function describeMissing(path: Path, found: FoundSchema | undefined): Problem {
  const key = String(path[path.length - 1]);
  const parent = formatPath(path.slice(0, -1));
  const example = found?.examples[0];
  const hint = example !== undefined ? showInline(example) : `<${found?.description ?? "a value"}>`;
  return {
    path,
    message: parent ? `${parent} is missing required key "${key}"` : `missing required key "${key}"`,
    fix: `add ${key}: ${hint}`,
  };
}

function describeBound(
  issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig, path: Path, value: unknown, found: FoundSchema | undefined,
): Problem {
  const where = formatPath(path);
  const small = issue.code === "too_small";
  const limit = Number(small ? (issue as z.core.$ZodIssueTooSmall).minimum : (issue as z.core.$ZodIssueTooBig).maximum);
  if (issue.origin === "number" || issue.origin === "int") {
    const bound = issue.inclusive ? (small ? "at least" : "at most") : small ? "greater than" : "less than";
    const fix = issue.inclusive
      ? `write ${limit} or ${small ? "more" : "less"}`
      : `write a number ${small ? "above" : "below"} ${limit}`;
    return { path, message: `${where} must be ${bound} ${limit}, got ${describeValue(value)}`, fix };
  }
  const example = found?.examples[0];
  const fallback = typeof path[path.length - 1] === "number"
    ? "remove it, or write a value"
    : `write ${found?.description ?? "a value"}`;
  const fix = example !== undefined ? `write e.g. ${showInline(example)}` : fallback;
  if (small && limit <= 1) return { path, message: `${where} must not be empty`, fix };
  const unit = issue.origin === "string" ? "characters" : "items";
  return {
    path,
    message: `${where} must have ${small ? "at least" : "at most"} ${limit} ${unit}, got ${describeValue(value)}`,
    fix,
  };
}

/** What a person should write instead of `value`, as concrete as the schema allows. */
function suggestValue(found: FoundSchema | undefined, value: unknown): string {
  const schema = found?.schema;
  const example = found?.examples[0] ?? found?.defaultValue;
  const unquoted = typeof value === "string" ? value.trim() : "";
  if (schema instanceof z.ZodNumber && unquoted !== "" && Number.isFinite(Number(unquoted))) {
    return `remove the quotes: ${unquoted}`;
  }
  if (schema instanceof z.ZodNumber) return `write a number such as ${typeof example === "number" ? example : 1}`;
  if (schema instanceof z.ZodBoolean) return unquoted === "true" || unquoted === "false"
    ? `remove the quotes: ${unquoted}`
    : "write true or false";
  if (schema instanceof z.ZodString && (typeof value === "number" || typeof value === "boolean")) {
    return `quote it: "${String(value)}"`;
  }
  // A shell-style string becomes an argv list: "python train.py" → [python, train.py].
  if (schema instanceof z.ZodArray && typeof value === "string") {
    const words = value.trim().split(/\s+/).map((word) => word.replace(/^(["'])(.*)\1$/, "$2"));
    return `make it a list: ${showInline(words)}`;
  }
  if (schema instanceof z.ZodArray && value !== null && typeof value !== "object") {
    return `make it a list: [${showInline(value)}]`;
  }
  if (schema instanceof z.ZodEnum) return `write ${joinOr(schema.options.map(String))}`;
  if (example !== undefined) return `write e.g. ${showInline(example)}`;
  if (schema instanceof z.ZodObject) return `indent its keys below it: ${Object.keys(schema.shape).join(", ")}`;
  return `write ${expectPhrase(found)}`;
}

function expectPhrase(found: FoundSchema | undefined): string {
  const schema = found?.schema;
  if (schema instanceof z.ZodString) return "a string";
  if (schema instanceof z.ZodNumber) return schema.isInt ? "a whole number" : "a number";
  if (schema instanceof z.ZodBoolean) return "true or false";
  if (schema instanceof z.ZodEnum) return `one of ${schema.options.map(String).join(", ")}`;
  if (schema instanceof z.ZodArray) return "a list";
  if (schema instanceof z.ZodObject || schema instanceof z.ZodRecord) return "a map";
  return found?.description ?? "a different value";
}

/** `roles.researcher.count`, `share[0]`, `roles["my role"]`: how a person would name the spot. */
export function formatPath(path: readonly (string | number)[]): string {
  return path
    .map((segment, index) => {
      if (typeof segment === "number") return `[${segment}]`;
      if (!/^[A-Za-z0-9_][\w-]*$/.test(segment)) return `[${JSON.stringify(segment)}]`;
      return index === 0 ? segment : `.${segment}`;
    })
    .join("");
}

/** A value as a message quotes it: strings in quotes, collections by kind. */
function describeValue(value: unknown): string {
  if (value === null || value === undefined) return "nothing";
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return value.length === 0 ? "an empty list" : "a list";
  if (typeof value === "object") return "a map";
  return String(value);
}

/** A value as one line of YAML a person can paste: [python, train.py], {path: data}. */
function showInline(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(showInline).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value).map(([key, inner]) => `${key}: ${showInline(inner)}`).join(", ")}}`;
  }
  if (typeof value !== "string") return String(value);
  // Bare only when YAML would read it back as the same string, not a number, boolean or null.
  const readsAsOther = /^([-+.\d][\d._eE+-]*|true|false|yes|no|on|off|null)$/i.test(value);
  if (/^[A-Za-z0-9_./-]+$/.test(value) && !readsAsOther) return value;
  return value.includes("\\") ? `'${value.replace(/'/g, "''")}'` : JSON.stringify(value);
}
