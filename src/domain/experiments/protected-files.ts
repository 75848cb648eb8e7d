// The base's protected files as org recorded them at `org up`, and what a checkout must hold before a run.
import { OrgError } from "../errors.js";
import { matchesRule } from "./path-rules.js";
import { isFields, isMapOf, isString } from "../json-fields.js";

/** One file of the base's tree: git's mode and the name of its content (a blob id, sha1 or sha256 as the repo's). */
export interface ProtectedFile {
  mode: string;
  blob: string;
}

/** state/verifier/protected.json: per verify.protected rule, the base's files it covers (none when it matches none). */
export interface ProtectedRecord {
  base: string;
  recordedAt: string;
  rules: Record<string, Record<string, ProtectedFile>>;
}

const isProtectedFile = (value: unknown): value is ProtectedFile =>
  isFields(value) && isString(value.mode) && isString(value.blob);

/** protected.json's JSON as a record; undefined when it is of another shape. */
export function parseProtectedRecord(value: unknown): ProtectedRecord | undefined {
  const valid = isFields(value) && isString(value.base) && isString(value.recordedAt)
    && isMapOf(isMapOf(isProtectedFile))(value.rules);
  return valid ? (value as unknown as ProtectedRecord) : undefined;
}

/** What a checkout holds at one recorded path: its mode and content name, or undefined when the path is missing. */
export type FoundFile = ProtectedFile | undefined;

/** A run must not start: the checkout, or the object store it came from, is not what org recorded. */
export class TamperedError extends OrgError {
  constructor(readonly reason: string) {
    super(reason, "tampered");
    this.name = "TamperedError";
  }
}

const GITLINK = "160000";

/** One line of `git ls-tree -r`: a path and what it holds. */
export interface TreeEntry {
  path: string;
  file: ProtectedFile;
}

/** The record of `rules` from the base's tree (`ls-tree -r` entries); gitlinks are no files of the checkout. */
export function recordProtected(base: string, entries: TreeEntry[], rules: string[], now: Date): ProtectedRecord {
  const files = entries.filter((entry) => entry.file.mode !== GITLINK);
  const covered = (rule: string) =>
    files.filter(({ path }) => matchesRule(path, rule)).map(({ path, file }) => [path, file]);
  const byRule = rules.map((rule) => [rule, Object.fromEntries(covered(rule))]);
  return { base, recordedAt: now.toISOString(), rules: Object.fromEntries(byRule) };
}

/** Whether `record` answers for these rules on this base: a new base, or a rule it never saw, is recorded again. */
export function coversRules(record: ProtectedRecord | undefined, base: string, rules: string[]): boolean {
  return record !== undefined && record.base === base && rules.every((rule) => record.rules[rule] !== undefined);
}

/** Every file the rules cover, by path. */
export function listProtected(record: ProtectedRecord, rules: string[]): Map<string, ProtectedFile> {
  return new Map(rules.flatMap((rule) => Object.entries(record.rules[rule] ?? {})));
}

/** The first protected file the checkout does not hold as recorded, said in one line; undefined when all match. */
export function findTampered(expected: Map<string, ProtectedFile>, found: Map<string, FoundFile>): string | undefined {
  for (const [path, want] of expected) {
    const have = found.get(path);
    if (!have) return `protected ${path} is missing from the checkout`;
    if (isLink(have.mode) !== isLink(want.mode)) {
      const what = isLink(have.mode) ? "a symbolic link" : "a file";
      return `protected ${path} is ${what} in the checkout, not as recorded`;
    }
    if (have.blob !== want.blob) {
      const [found, recorded] = [have.blob.slice(0, 12), want.blob.slice(0, 12)];
      return `protected ${path} in the checkout is ${found}, not the base's ${recorded} recorded at org up`;
    }
  }
  return undefined;
}

function isLink(mode: string): boolean {
  return mode === "120000";
}
