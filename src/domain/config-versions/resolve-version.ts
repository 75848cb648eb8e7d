// Which saved program a version id (or a prefix of one) names.
import { UNVERSIONED } from "./version.js";

export type VersionLookup =
  | { kind: "found"; version: string }
  | { kind: "unknown" | "ambiguous" | "missing"; reason: string };

/**
 * `saved`: versions with a folder under state/programs; `used`: versions the history names, a folder or not.
 * A unique prefix is enough, as with git's short hashes.
 */
export function resolveVersion(id: string, saved: readonly string[], used: readonly string[]): VersionLookup {
  const known = describeKnown(saved);
  const wanted = id.trim().toLowerCase();
  if (wanted === UNVERSIONED) return {
    kind: "unknown",
    reason: `"${UNVERSIONED}" is the results recorded before program versions: `
      + `no program was saved for them — ${known}`,
  };
  if (!/^[0-9a-f]{1,64}$/.test(wanted)) return {
    kind: "unknown",
    reason: `"${id}" is not a program version (hex digits, as \`org history\` lists them) — ${known}`,
  };
  const matches = [...new Set([...saved, ...used])].filter((version) => version.startsWith(wanted));
  if (matches.length === 0) return { kind: "unknown", reason: `no program version ${wanted} — ${known}` };
  if (matches.length > 1) return {
    kind: "ambiguous",
    reason: `${wanted} matches ${matches.length} versions: ${matches.sort().join(", ")} — give more of its digits`,
  };
  const version = matches[0]!;
  if (!saved.includes(version)) return {
    kind: "missing",
    reason: `program ${version} ran here, but its saved copy state/programs/${version}/ is gone (removed `
      + `by hand?) — ${known}`,
  };
  return { kind: "found", version };
}

function describeKnown(saved: readonly string[]): string {
  return saved.length === 0
    ? "no program is saved yet: `org up` saves the first"
    : `saved versions: ${[...saved].sort().join(", ")}`;
}
