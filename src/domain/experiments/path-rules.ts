// Which files an experiment may change: protected paths never, and only the role's `edits` globs when it has any.
import { posix } from "node:path";

/**
 * One entry of `git diff --name-status`: status is git's letter (M, A, D, R100, C75, T); from is the old path of a
 * rename or copy.
 */
export interface ChangedPath {
  path: string;
  status: string;
  from?: string;
  /** Where it points, when the commit makes it a symbolic link. */
  link?: string;
}

export interface PathRules {
  protected: string[];
  edits: string[];
}

export type PathCheck = { ok: true } | { ok: false; reason: string };

const LISTED = 5;

/**
 * Reject a diff that touches a protected path (any status, either side of a rename) or strays
 * outside non-empty `edits`.
 */
export function checkPaths(changed: ChangedPath[], rules: PathRules): PathCheck {
  const touched = unique(changed.flatMap((change) => (change.from === undefined
    ? [change.path]
    : [change.from, change.path])).map(normalizePath));
  const isProtected = touched.filter((path) => rules.protected.some((rule) => matchesRule(path, rule)));
  if (isProtected.length > 0) return { ok: false, reason: `touches protected ${listPaths(isProtected)}` };
  const link = changed.map((change) => checkLink(change, rules)).find((reason) => reason !== undefined);
  if (link) return { ok: false, reason: link };
  if (rules.edits.length === 0) return { ok: true };
  const outside = touched.filter((path) => !rules.edits.some((rule) => matchesRule(path, rule)));
  if (outside.length > 0) return {
    ok: false, reason: `changes ${listPaths(outside)}, outside edits [${rules.edits.join(", ")}]`,
  };
  return { ok: true };
}

/**
 * A link the run would follow into a protected file (the scorer) or out of the checkout (the org's own repo, state):
 * refused before anything runs, since the path rules see only the link's own path.
 */
function checkLink(change: ChangedPath, rules: PathRules): string | undefined {
  if (change.link === undefined) return undefined;
  const resolved = posix.normalize(posix.join(posix.dirname(change.path), change.link));
  if (posix.isAbsolute(change.link) || resolved === ".." || resolved.startsWith("../")) {
    return `${change.path} is a symbolic link out of the repo (${change.link}): commit the file itself`;
  }
  // A link to a folder holding a protected file reaches it as well: the repo's root (".") holds them all.
  if (rules.protected.some((rule) => resolved === "." || matchesRule(resolved, rule) || matchesRule(
    normalizePath(rule).replace(/\/+$/, ""), resolved,
  ))) {
    return `${change.path} is a symbolic link to protected ${resolved}: commit the file itself`;
  }
  return undefined;
}

/** A rule is a glob; a rule without wildcards also covers everything below it, so `data` protects `data/x.csv`. */
export function matchesRule(path: string, rule: string): boolean {
  const normalized = normalizePath(rule).replace(/\/+$/, "");
  if (globToRegExp(normalized).test(path)) return true;
  return !/[*?]/.test(normalized) && path.startsWith(`${normalized}/`);
}

/** `*` and `?` stay within one path segment; `**` crosses segments, and `**\/` may match no segment at all. */
export function globToRegExp(glob: string): RegExp {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]!;
    if (char === "*" && glob[i + 1] === "*") {
      const slashFollows = glob[i + 2] === "/";
      source += slashFollows ? "(?:.*/)?" : ".*";
      i += slashFollows ? 2 : 1;
    } else if (char === "*") {
      source += "[^/]*";
    } else if (char === "?") {
      source += "[^/]";
    } else {
      source += char.replace(/[.+^${}()|[\]\\]/g, "\\$&");
    }
  }
  return new RegExp(`^${source}$`);
}

// git prints repo-relative paths; rules may be written as ./train.py.
function normalizePath(path: string): string {
  return path.replace(/^(\.\/)+/, "");
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}

function listPaths(paths: string[]): string {
  const shown = paths.slice(0, LISTED).join(", ");
  return paths.length > LISTED ? `${shown} (+${paths.length - LISTED} more)` : shown;
}
